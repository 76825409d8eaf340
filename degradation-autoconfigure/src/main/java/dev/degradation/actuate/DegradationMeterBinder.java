package dev.degradation.actuate;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.FallbackCounts;
import dev.degradation.engine.SimulationSignal;
import dev.degradation.engine.ManifestReplaced;
import dev.degradation.engine.ShedSignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.web.StaleAnswers;

/**
 * Binds the degradation meters. Every meter but the probe timers is created once, here; the
 * request path only increments a {@link FallbackCounts} cell. Tags are bounded: routes are the
 * manifest's patterns, never raw request paths; dependencies and tiers are the manifest's names;
 * probe outcomes are a short fixed list.
 *
 * <ul>
 * <li>{@code degradation.level}: gauge of the active shed level</li>
 * <li>{@code degradation.level.changes}: counter of changes of the active level</li>
 * <li>{@code degradation.fallbacks}: counter per route and kind of the signal that shed it (tags
 * {@code tier}, {@code method}, {@code route}, {@code fallback}, {@code cause}: the signal's
 * {@link ShedSignal#kind() kind}, such as {@code dependency}, {@code simulation},
 * {@code switch}, {@code overload} or a user's own {@code maintenance}; {@code scope}:
 * {@code instance}, or {@code request} for the answers a request's own simulation asked for)</li>
 * <li>{@code degradation.dependency.state}: one 0/1 gauge per dependency and state (tags
 * {@code dependency}, {@code state})</li>
 * <li>{@code degradation.dependency.error.rate}: gauge per dependency, from 0 to 1</li>
 * <li>{@code degradation.probes}: timer per dependency and outcome (tags {@code dependency},
 * {@code outcome})</li>
 * <li>what each signal adds ({@link SignalMeters}), such as admission's
 * {@code degradation.overload.*} ({@link OverloadMeters})</li>
 * <li>{@code degradation.stale.*}: the copies of the {@code stale} routes, only while the manifest
 * has one</li>
 * <li>{@code degradation.overrides}: gauge of the run-time overrides active now, per kind of
 * signal (tag {@code kind}: {@code simulation}, {@code switch}, {@code dependency}, ...)</li>
 * </ul>
 */
public class DegradationMeterBinder implements MeterBinder {

	private final DegradationEngine engine;

	private final @Nullable StaleAnswers staleAnswers;

	private final List<SignalMeters> signalMeters;

	/**
	 * Create a binder without the meters of the copies of {@code stale} routes.
	 * @param engine the engine to measure
	 */
	public DegradationMeterBinder(DegradationEngine engine) {
		this(engine, null);
	}

	/**
	 * Create a binder.
	 * @param engine the engine to measure
	 * @param staleAnswers the copies of the {@code stale} routes, measured while the manifest has
	 * such a route, or {@code null}
	 */
	public DegradationMeterBinder(DegradationEngine engine, @Nullable StaleAnswers staleAnswers) {
		this(engine, staleAnswers, List.of());
	}

	/**
	 * Create a binder.
	 * @param engine the engine to measure
	 * @param staleAnswers the copies of the {@code stale} routes, measured while the manifest has
	 * such a route, or {@code null}
	 * @param signalMeters the meters of signals that cannot bind their own, such as
	 * {@link OverloadMeters}; a signal that implements {@link SignalMeters} itself needs none
	 */
	public DegradationMeterBinder(DegradationEngine engine, @Nullable StaleAnswers staleAnswers,
			List<? extends SignalMeters> signalMeters) {
		this.engine = engine;
		this.staleAnswers = staleAnswers;
		this.signalMeters = List.copyOf(signalMeters);
	}

	private List<SignalMeters> signalMeters() {
		List<SignalMeters> all = new ArrayList<>(this.signalMeters);
		for (ShedSignal signal : this.engine.signals()) {
			if (signal instanceof SignalMeters own) {
				all.add(own);
			}
		}
		return all;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("degradation.level", this.engine, (engine) -> engine.state().level())
			.description("Active shed level: every tier whose priority is at most this is shed")
			.register(registry);
		FunctionCounter.builder("degradation.level.changes", this.engine, DegradationEngine::levelChanges)
			.description("Changes of the active shed level")
			.register(registry);
		bindOverrides(registry);
		ManifestMeters manifestMeters = new ManifestMeters(registry);
		manifestMeters.bind(this.engine.manifest());
		this.engine.addListener(manifestMeters);
		this.engine.addListener(new ProbeTimers(registry));
	}

	/**
	 * What operators set at run time, as the endpoint lists it under {@code overrides}: one gauge
	 * per kind of signal, so that a dashboard shows a forgotten override and when it was set.
	 */
	private void bindOverrides(MeterRegistry registry) {
		Set<String> kinds = new LinkedHashSet<>();
		this.engine.signals().forEach((signal) -> kinds.add(signal.kind()));
		for (String kind : kinds) {
			Gauge.builder("degradation.overrides", this.engine, (engine) -> engine.signals()
				.stream()
				.filter((signal) -> signal.kind().equals(kind))
				.mapToInt((signal) -> signal.runTimeOverrides().size())
				.sum())
				.tag("kind", kind)
				.description("Overrides set at run time through the Actuator and active now")
				.register(registry);
		}
	}

	/**
	 * The copies of the {@code stale} routes, while the manifest has one:
	 * {@code degradation.stale.entries} and {@code degradation.stale.bytes} (gauges),
	 * {@code degradation.stale.answers} (counter; tag outcome: stored, served, evicted, refused).
	 */
	private List<Meter> bindStale(MeterRegistry registry, DegradationManifest manifest) {
		List<Meter> meters = new ArrayList<>();
		StaleAnswers answers = this.staleAnswers;
		if (answers == null || manifest.routes().stream().noneMatch((route) -> route.fallback() instanceof Fallback.Stale)) {
			return meters;
		}
		meters.add(Gauge.builder("degradation.stale.entries", answers, StaleAnswers::entries)
			.description("Copies held by the 'stale' routes")
			.register(registry));
		meters.add(Gauge.builder("degradation.stale.bytes", answers, StaleAnswers::bytes)
			.description("Memory held by the copies of the 'stale' routes")
			.baseUnit("bytes")
			.register(registry));
		Map<String, ToDoubleFunction<StaleAnswers>> outcomes = Map.of("stored", StaleAnswers::stored, "served",
				StaleAnswers::served, "evicted", StaleAnswers::evicted, "refused", StaleAnswers::refused);
		outcomes.forEach((outcome, count) -> meters
			.add(FunctionCounter.builder("degradation.stale.answers", answers, count)
				.description("Answers of the 'stale' routes stored, served from a copy, evicted or refused")
				.tag("outcome", outcome)
				.register(registry)));
		return meters;
	}

	/**
	 * The meters of one manifest's routes and dependencies, bound again for the new manifest after
	 * a reload so that tags always name what the active manifest declares.
	 */
	private final class ManifestMeters implements DegradationListener {

		private final MeterRegistry registry;

		private final List<Meter> meters = new ArrayList<>();

		ManifestMeters(MeterRegistry registry) {
			this.registry = registry;
		}

		synchronized void bind(DegradationManifest manifest) {
			this.meters.forEach(this.registry::remove);
			this.meters.clear();
			this.meters.addAll(bindFallbacks(this.registry, manifest));
			for (Dependency dependency : manifest.dependencies()) {
				this.meters.addAll(bindDependency(this.registry, dependency.name()));
			}
			for (SignalMeters signal : signalMeters()) {
				this.meters.addAll(signal.bindTo(this.registry, manifest));
			}
			this.meters.addAll(bindStale(this.registry, manifest));
		}

		@Override
		public void manifestReplaced(ManifestReplaced replaced) {
			bind(replaced.manifest());
		}

	}

	private List<Meter> bindFallbacks(MeterRegistry registry, DegradationManifest manifest) {
		List<Meter> meters = new ArrayList<>();
		FallbackCounts counts = this.engine.fallbackCounts();
		int index = 0;
		for (Route route : manifest.routes()) {
			int routeIndex = index++;
			for (String cause : counts.kinds()) {
				meters.add(FunctionCounter.builder("degradation.fallbacks", counts, (c) -> c.count(routeIndex, cause))
					.description("Requests answered by a route's fallback, by why the route was shed")
					.tag("tier", route.tier())
					.tag("method", route.method())
					.tag("route", route.path())
					.tag("fallback", route.fallback().kind())
					.tag("cause", cause)
					.tag("scope", "instance")
					.register(registry));
			}
			// A request's own simulation is counted under its kind, told apart by its scope: it
			// is a test's answer, not the instance degrading.
			meters.add(FunctionCounter
				.builder("degradation.fallbacks", counts, (c) -> c.requestSimulations(routeIndex))
				.description("Requests answered by a route's fallback, by why the route was shed")
				.tag("tier", route.tier())
				.tag("method", route.method())
				.tag("route", route.path())
				.tag("fallback", route.fallback().kind())
				.tag("cause", SimulationSignal.KIND)
				.tag("scope", "request")
				.register(registry));
		}
		return meters;
	}

	private List<Meter> bindDependency(MeterRegistry registry, String name) {
		List<Meter> meters = new ArrayList<>();
		for (DependencyState state : DependencyState.values()) {
			meters.add(Gauge.builder("degradation.dependency.state", this.engine,
					(engine) -> (engine.dependency(name).state() == state) ? 1 : 0)
				.description("1 when the dependency is in this state, 0 otherwise")
				.tag("dependency", name)
				.tag("state", state.name().toLowerCase(java.util.Locale.ROOT))
				.register(registry));
		}
		meters.add(Gauge.builder("degradation.dependency.error.rate", this.engine,
				(engine) -> engine.dependency(name).errorRate())
			.description("Error rate of the dependency's probes over its window, from 0 to 1")
			.tag("dependency", name)
			.register(registry));
		return meters;
	}

	/**
	 * Times every probe, tagged with its outcome.
	 */
	private static final class ProbeTimers implements DegradationListener {

		private final MeterRegistry registry;

		ProbeTimers(MeterRegistry registry) {
			this.registry = registry;
		}

		@Override
		public void probed(String dependency, ProbeResult result) {
			Timer.builder("degradation.probes")
				.description("Health probes of the dependencies")
				.tag("dependency", dependency)
				.tag("outcome", result.outcome())
				.register(this.registry)
				.record(result.latency());
		}

	}

}
