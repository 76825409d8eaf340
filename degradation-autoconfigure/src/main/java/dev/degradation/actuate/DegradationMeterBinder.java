package dev.degradation.actuate;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.FallbackCounts;
import dev.degradation.manifest.Route;

/**
 * Binds the degradation meters: {@code degradation.level} and one {@code degradation.fallbacks}
 * counter per manifest route. Every meter is created once, here; the request path only increments
 * a {@link FallbackCounts} cell. Tags are bounded: the route tag is the manifest's pattern, never
 * a raw request path.
 */
public class DegradationMeterBinder implements MeterBinder {

	private final DegradationEngine engine;

	/**
	 * Create a binder.
	 * @param engine the engine to measure
	 */
	public DegradationMeterBinder(DegradationEngine engine) {
		this.engine = engine;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("degradation.level", this.engine, (engine) -> engine.state().level())
			.description("Active shed level: every tier whose priority is at most this is shed")
			.register(registry);
		FallbackCounts counts = this.engine.fallbackCounts();
		int index = 0;
		for (Route route : this.engine.manifest().routes()) {
			int routeIndex = index++;
			FunctionCounter.builder("degradation.fallbacks", counts, (c) -> c.count(routeIndex))
				.description("Requests answered by a route's fallback because its tier was shed")
				.tag("tier", route.tier())
				.tag("method", route.method())
				.tag("route", route.path())
				.tag("fallback", route.fallback().kind())
				.register(registry);
		}
	}

}
