package dev.degradation.actuate;

import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.degradation.actuate.DegradationEndpoint.DegradationDescriptor;
import dev.degradation.actuate.DegradationEndpoint.DependencyDescriptor;
import dev.degradation.actuate.DegradationEndpoint.HoldDescriptor;
import dev.degradation.actuate.DegradationEndpoint.OverrideDescriptor;
import dev.degradation.actuate.DegradationEndpoint.ProbeDescriptor;
import dev.degradation.actuate.DegradationEndpoint.RouteDescriptor;
import dev.degradation.actuate.DegradationEndpoint.SignalDescriptor;
import dev.degradation.actuate.DegradationEndpoint.TierDescriptor;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.engine.ShedDemand;
import dev.degradation.engine.ShedHold;
import dev.degradation.engine.ShedSignal;
import dev.degradation.engine.SignalOverride;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;
import dev.degradation.monitor.DependencyStatus;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.web.HandlerRoute;
import dev.degradation.web.ManifestRouteCheck;

/**
 * The endpoint's read model: describes a state of the engine as the endpoint's answer (every tier
 * and route with what holds it shed, every dependency, every signal's demand, overrides and
 * sections). Apart from the writes so that what an operator may change and what anyone may read are
 * each in one place; every write answers with this same description.
 */
final class DegradationDescriber {

	/** The answer's own fields, which no signal's section may take. */
	private static final Set<String> OWN_FIELDS = Arrays.stream(DegradationDescriptor.class.getRecordComponents())
		.map(RecordComponent::getName)
		.collect(Collectors.toUnmodifiableSet());

	private final DegradationEngine engine;

	private final @Nullable Supplier<List<HandlerRoute>> handlers;

	private final Supplier<List<EndpointSection>> extraSections;

	private volatile boolean requestSimulation;

	private volatile @Nullable HandledRoutes handled;

	DegradationDescriber(DegradationEngine engine, @Nullable Supplier<List<HandlerRoute>> handlers,
			Supplier<List<EndpointSection>> sections) {
		this.engine = engine;
		this.handlers = handlers;
		this.extraSections = sections;
	}

	void setRequestSimulation(boolean enabled) {
		this.requestSimulation = enabled;
	}

	DegradationDescriptor describe(DegradationState state) {
		DegradationManifest manifest = state.manifest();
		HandledRoutes handledRoutes = handled(manifest);
		List<TierDescriptor> tiers = new ArrayList<>();
		List<String> shedTiers = new ArrayList<>();
		int index = 0;
		for (Tier tier : manifest.tiers()) {
			List<RouteDescriptor> routes = new ArrayList<>();
			boolean everyRouteShed = !tier.routes().isEmpty();
			for (Route route : tier.routes()) {
				String cause = state.shedCause(index);
				everyRouteShed = everyRouteShed && cause != null;
				List<HoldDescriptor> heldBy = new ArrayList<>();
				ShedHold last = null;
				for (Map.Entry<String, ShedHold> held : state.holds(index).entrySet()) {
					ShedHold hold = held.getValue();
					heldBy.add(new HoldDescriptor(held.getKey(), hold.rule(), hold.detail(), hold.restoresAt()));
					last = (last != null) ? last.later(hold) : hold;
				}
				routes.add(new RouteDescriptor(route.name(), route.method(), route.path(), route.fallback().kind(),
						fallbackStatus(route.fallback()), route.requires(), cause != null, cause,
						(last != null) ? last.restoresAt() : null, heldBy, this.engine.fallbackCounts().count(index),
						route.position().toString(), handledRoutes.handled(index)));
				index++;
			}
			// A tier is shed when every route of it is, whatever the cause: the level, a switch
			// that turned it off, the dependencies its routes require.
			boolean shed = state.sheds(tier.priority()) || everyRouteShed;
			if (shed) {
				shedTiers.add(tier.name());
			}
			tiers.add(new TierDescriptor(tier.name(), tier.priority(), shed, routes));
		}
		Map<String, DependencyDescriptor> dependencies = new LinkedHashMap<>();
		for (Dependency dependency : manifest.dependencies()) {
			DependencyStatus status = this.engine.dependency(dependency.name());
			ProbeResult last = status.lastProbe();
			dependencies.put(dependency.name(), new DependencyDescriptor(status.state(), status.computedState(),
					status.forced(), Math.round(status.errorRate() * 1000) / 1000.0, status.samples(),
					(last != null) ? new ProbeDescriptor(last.outcome(), last.healthy(), last.detail(),
							last.latency().toMillis(), last.at()) : null,
					withoutSecrets(dependency.healthUrl()), dependency.healthCheck().timeout().toMillis(),
					dependency.healthCheck().interval().toMillis(), status.breaker(), status.breakerChangedAt(),
					breakerNote(dependency, status)));
		}
		Map<String, SignalDescriptor> signals = new LinkedHashMap<>();
		List<OverrideDescriptor> overrides = new ArrayList<>();
		Map<String, Object> sections = new LinkedHashMap<>();
		for (ShedSignal signal : this.engine.signals()) {
			ShedDemand demand = state.demands().getOrDefault(signal.name(), ShedDemand.NONE);
			signals.put(signal.name(), new SignalDescriptor(signal.kind(), demand.level(), demand.exact(),
					demand.routes().size(), demand.reason()));
			for (SignalOverride override : signal.runTimeOverrides()) {
				overrides.add(new OverrideDescriptor(override.target(), override.state(), override.by(), override.at(),
						override.until()));
			}
			signal.sections(state).forEach((key, section) -> {
				// A section never hides a field of the answer nor another signal's section.
				if (!OWN_FIELDS.contains(key) && !sections.containsKey(key)) {
					sections.put(key, section);
				}
			});
		}
		if (this.requestSimulation) {
			// Whether requests may simulate for themselves, so that a tool can walk the service
			// without moving its level; the token is never shown.
			Map<String, Object> requestSimulation = new LinkedHashMap<>();
			requestSimulation.put("enabled", true);
			requestSimulation.put("header", RequestSimulation.HEADER);
			requestSimulation.put("tokenHeader", RequestSimulation.TOKEN_HEADER);
			sections.putIfAbsent("requestSimulation", requestSimulation);
		}
		for (EndpointSection section : this.extraSections.get()) {
			if (!OWN_FIELDS.contains(section.name()) && !sections.containsKey(section.name())) {
				sections.put(section.name(), section.content().get());
			}
		}
		return new DegradationDescriptor(manifest.source(), state.level(), state.computedLevel(), state.simulation(),
				shedTiers, state.changedAt(), state.reason(), signals, overrides, tiers, dependencies, sections);
	}

	/**
	 * What the breaker's state means for the dependency's calls now. A half-open breaker is shown
	 * as what it is: it stays half-open, after its routes are served again, until the application
	 * calls the dependency, since only calls (not probes) test it.
	 */
	private static @Nullable String breakerNote(Dependency dependency, DependencyStatus status) {
		return switch (status.breaker()) {
			case CLOSED -> null;
			case OPEN -> "open: calls are refused at once; it lets trial calls through "
					+ ((status.breakerChangedAt() != null)
							? "from " + status.breakerChangedAt().plus(dependency.calls().breaker().open()) + " " : "")
					+ "(open_ms " + dependency.calls().breaker().open().toMillis() + ")";
			case HALF_OPEN -> "half-open: the next " + dependency.calls().breaker().halfOpenCalls()
					+ " calls to it are trials that close the breaker or open it again; it stays half-open until "
					+ "the application calls it (probes do not count), so it is shown half-open after its routes "
					+ "are served again, until traffic flows";
		};
	}

	/**
	 * The status of a fallback's answer, or {@code null} when it depends on what the route holds
	 * ({@code stale}: its copy, its static answer or 503).
	 */
	private static @Nullable Integer fallbackStatus(Fallback fallback) {
		int status = fallback.answerStatus();
		return (status != Fallback.STATUS_OF_WHAT_IT_HOLDS) ? status : null;
	}

	/**
	 * The health URL without user information and query, which placeholders may have filled
	 * with credentials; readers of the endpoint need not be trusted with them.
	 */
	private static @Nullable URI withoutSecrets(@Nullable URI url) {
		if (url == null || url.getRawUserInfo() == null && url.getRawQuery() == null) {
			return url;
		}
		try {
			return new URI(url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), null, null);
		}
		catch (java.net.URISyntaxException ex) {
			return URI.create(url.getScheme() + "://" + url.getHost());
		}
	}

	/**
	 * Whether a handler serves each route of the manifest, worked out once per manifest: the
	 * handlers do not change once the application runs.
	 */
	private HandledRoutes handled(DegradationManifest manifest) {
		HandledRoutes known = this.handled;
		if (known != null && known.manifest() == manifest) {
			return known;
		}
		List<HandlerRoute> handlerRoutes = (this.handlers != null) ? this.handlers.get() : List.of();
		List<Route> routes = manifest.routes();
		@Nullable Boolean[] handled = new Boolean[routes.size()];
		if (!handlerRoutes.isEmpty()) {
			for (int i = 0; i < routes.size(); i++) {
				handled[i] = ManifestRouteCheck.serves(routes.get(i), handlerRoutes);
			}
		}
		known = new HandledRoutes(manifest, handled);
		this.handled = known;
		return known;
	}

	private record HandledRoutes(DegradationManifest manifest, @Nullable Boolean[] routes) {

		@Nullable Boolean handled(int index) {
			return this.routes[index];
		}

	}

}
