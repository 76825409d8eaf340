package dev.degradation.actuate;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationFilter;

import org.springframework.util.ClassUtils;

import dev.degradation.web.RequestDecider;

/**
 * Marks every server request observation (and so {@code http.server.requests}) with a
 * {@code degraded} key, {@code true} for an answer a fallback served and {@code false} otherwise:
 * two values, on every request, so that the metric keeps one set of tag keys and a per-route
 * dashboard can tell the shed traffic from the served one. The route of a shed request is its
 * manifest pattern, set by the web stack's adapter of the request decision; on both stacks. Each
 * stack's observation is read by a class of its own, loaded only where that stack is, so that an
 * application with one stack on its class path never loads the other's types.
 */
public class DegradedRequestObservationFilter implements ObservationFilter {

	/** The key added to server request observations. */
	public static final String KEY = "degraded";

	private static final boolean SERVLET = ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest",
			DegradedRequestObservationFilter.class.getClassLoader());

	private static final boolean REACTIVE = ClassUtils.isPresent("reactor.core.publisher.Mono",
			DegradedRequestObservationFilter.class.getClassLoader());

	@Override
	public Observation.Context map(Observation.Context context) {
		if (SERVLET) {
			Servlet.map(context);
		}
		if (REACTIVE) {
			Reactive.map(context);
		}
		return context;
	}

	/**
	 * The servlet stack's server observations, whose types are touched only where the Servlet API is.
	 */
	private static final class Servlet {

		private static final KeyValue DEGRADED = KeyValue.of(KEY, "true");

		private static final KeyValue SERVED = KeyValue.of(KEY, "false");

		static void map(Observation.Context context) {
			if (context instanceof org.springframework.http.server.observation.ServerRequestObservationContext request) {
				boolean degraded = request.getCarrier().getAttribute(RequestDecider.SHED_CAUSE_ATTRIBUTE) != null;
				request.addLowCardinalityKeyValue(degraded ? DEGRADED : SERVED);
			}
		}

	}

	/**
	 * The reactive stack's server observations, whose types are touched only where Reactor is.
	 */
	private static final class Reactive {

		private static final KeyValue DEGRADED = KeyValue.of(KEY, "true");

		private static final KeyValue SERVED = KeyValue.of(KEY, "false");

		static void map(Observation.Context context) {
			if (context instanceof org.springframework.http.server.reactive.observation.ServerRequestObservationContext request) {
				boolean degraded = request.getAttributes().get(RequestDecider.SHED_CAUSE_ATTRIBUTE) != null;
				request.addLowCardinalityKeyValue(degraded ? DEGRADED : SERVED);
			}
		}

	}

}
