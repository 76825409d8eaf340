package dev.degradation.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.FallbackCounts;
import dev.degradation.engine.ManifestReplaced;
import dev.degradation.engine.ShedSignal;
import dev.degradation.engine.SwitchSignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.overload.Admission;
import dev.degradation.engine.OverloadSignal;
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
 * {@code switch}, {@code overload} or a user's own {@code maintenance})</li>
 * <li>{@code degradation.dependency.state}: one 0/1 gauge per dependency and state (tags
 * {@code dependency}, {@code state})</li>
 * <li>{@code degradation.dependency.error.rate}: gauge per dependency, from 0 to 1</li>
 * <li>{@code degradation.probes}: timer per dependency and outcome (tags {@code dependency},
 * {@code outcome})</li>
 * <li>{@code degradation.overload.*}: admission under load, only while the manifest has an
 * {@code overload} section</li>
 * <li>{@code degradation.stale.*}: the copies of the {@code stale} routes, only while the manifest
 * has one</li>
 * <li>{@code degradation.overrides}: gauge of the run-time overrides active now (tag {@code kind}:
 * {@code simulation}, {@code switch} or {@code dependency})</li>
 * </ul>
 */
public class DegradationMeterBinder implements MeterBinder {

	private final DegradationEngine engine;

	private final @Nullable StaleAnswers staleAnswers;

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
		this.engine = engine;
		this.staleAnswers = staleAnswers;
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
	 * per kind, so that a dashboard shows a forgotten override and when it was set.
	 */
	private void bindOverrides(MeterRegistry registry) {
		Gauge.builder("degradation.overrides", this.engine, (engine) -> (engine.simulation().override() != null) ? 1 : 0)
			.tag("kind", "simulation")
			.description("Overrides set at run time through the Actuator and active now")
			.register(registry);
		Gauge.builder("degradation.overrides", this.engine, (engine) -> engine.signals()
			.stream()
			.filter(SwitchSignal.class::isInstance)
			.mapToInt((signal) -> ((SwitchSignal) signal).overrides().size())
			.sum()).tag("kind", "switch").description("Overrides set at run time through the Actuator and active now")
			.register(registry);
		Gauge.builder("degradation.overrides", this.engine, (engine) -> engine.manifest()
			.dependencies()
			.stream()
			.filter((dependency) -> engine.dependency(dependency.name()).forced())
			.count()).tag("kind", "dependency").description("Overrides set at run time through the Actuator and active now")
			.register(registry);
	}

	/**
	 * The admission's meters, while the manifest has an {@code overload} section (and admission is
	 * not switched off); they read the signal's current admission.
	 */
	private List<Meter> bindOverload(MeterRegistry registry, DegradationManifest manifest) {
		List<Meter> meters = new ArrayList<>();
		if (manifest.overload() == null) {
			return meters;
		}
		for (ShedSignal signal : this.engine.signals()) {
			if (signal instanceof OverloadSignal overload) {
				meters.addAll(bindOverload(registry, overload));
				meters.addAll(bindOverloadTiers(registry, overload, manifest));
			}
		}
		return meters;
	}

	private static List<Meter> bindOverload(MeterRegistry registry, OverloadSignal overload) {
		List<Meter> meters = new ArrayList<>();
		meters.add(Gauge.builder("degradation.overload.limit", overload, (o) -> read(o, Admission::limit))
			.description("Concurrency limit of admission")
			.register(registry));
		meters.add(Gauge.builder("degradation.overload.inflight", overload, (o) -> read(o, Admission::inflight))
			.description("Requests admitted and not yet answered")
			.register(registry));
		meters.add(Gauge.builder("degradation.overload.waiting", overload, (o) -> read(o, Admission::waiting))
			.description("Core requests waiting for a place")
			.register(registry));
		meters.add(FunctionTimer.builder("degradation.overload.queue", overload, (o) -> (long) read(o, Admission::waits),
				(o) -> read(o, Admission::waitedNanos), TimeUnit.NANOSECONDS)
			.description("Time core requests waited for a place")
			.register(registry));
		meters.add(FunctionCounter.builder("degradation.overload.requests", overload, (o) -> read(o, Admission::admitted))
			.description("Requests by what admission decided")
			.tag("tier", "any")
			.tag("outcome", "admitted")
			.register(registry));
		meters.add(FunctionCounter.builder("degradation.overload.requests", overload, (o) -> read(o, Admission::refused))
			.description("Requests by what admission decided")
			.tag("tier", "core")
			.tag("outcome", "refused")
			.register(registry));
		meters.add(FunctionCounter.builder("degradation.overload.requests", overload,
				(o) -> read(o, Admission::refusedForDeadline))
			.description("Requests by what admission decided")
			.tag("tier", "any")
			.tag("outcome", "deadline")
			.register(registry));
		return meters;
	}

	/**
	 * The requests admission answered with a tier's fallback, one counter a tier of the manifest
	 * (bound again after a reload, with {@link ManifestMeters}).
	 */
	private static List<Meter> bindOverloadTiers(MeterRegistry registry, OverloadSignal overload,
			DegradationManifest manifest) {
		List<Meter> meters = new ArrayList<>();
		for (Tier tier : manifest.tiers()) {
			meters.add(FunctionCounter.builder("degradation.overload.requests", overload, (o) -> {
				Admission admission = o.admission();
				return (admission != null) ? admission.shed(o.rank(tier.priority())) : 0;
			})
				.description("Requests by what admission decided")
				.tag("tier", tier.name())
				.tag("outcome", "shed")
				.register(registry));
		}
		return meters;
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

	private static double read(OverloadSignal overload, ToDoubleFunction<Admission> value) {
		Admission admission = overload.admission();
		return (admission != null) ? value.applyAsDouble(admission) : 0;
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
			this.meters.addAll(bindOverload(this.registry, manifest));
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
					.register(registry));
			}
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
