package dev.degradation.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.NoSuchElementException;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.ShedScope;
import dev.degradation.manifest.Tier;
import dev.degradation.monitor.BreakerState;
import dev.degradation.monitor.DependencyMonitor;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.DependencyStateChange;
import dev.degradation.monitor.DependencyStatus;
import dev.degradation.monitor.ProbeResult;

/**
 * The shed signal of the dependencies: judges each one from its evidence
 * ({@link DependencyMonitor}) and demands what a failed dependency sheds, as the manifest's
 * {@code failed_dependency_sheds} says.
 *
 * <ul>
 * <li>{@link ShedScope#ROUTES} (the default): the routes that require a failed dependency, and
 * only those. Each dependency has its own hysteresis: once it sheds, its routes stay shed until it
 * has recovered and {@code hysteresis_seconds} have passed since it started shedding, so a
 * dependency that flaps sheds and restores its routes at most once per hysteresis, and never
 * delays the routes of another.</li>
 * <li>{@link ShedScope#TIERS} (the seed's cumulative behaviour): a level, raised at once to the
 * highest priority of a tier with a route that requires a failed dependency, and lowered one tier
 * per hysteresis ({@link LevelHysteresis}).</li>
 * </ul>
 * Thread-safe; changed through the {@link DegradationEngine}, which serializes the changes and
 * tells listeners of them.
 */
public final class DependencySignal implements ShedSignal {

	/** The kind of this signal, the first part of its causes. */
	public static final String KIND = "dependency";

	/** The name of this signal. */
	public static final String NAME = "dependencies";

	private final Clock clock;

	private ShedScope scope;

	private Duration hysteresis;

	private Map<String, DependencyMonitor> monitors = new LinkedHashMap<>();

	/** The routes that require each dependency, by index in the manifest's routes. */
	private Map<String, List<Integer>> routesRequiring = new LinkedHashMap<>();

	private Map<String, Integer> levelRequiredWhenFailed = new LinkedHashMap<>();

	/** The tier priorities, lowest first. */
	private List<Integer> priorities = List.of();

	/** The dependencies that shed their routes now, with when they started to. */
	private final Map<String, Instant> shedding = new LinkedHashMap<>();

	private LevelHysteresis level;

	/**
	 * Create the signal with every dependency unknown.
	 * @param manifest the manifest that declares the dependencies and the routes requiring them
	 * @param clock the clock for windows and hysteresis
	 */
	public DependencySignal(DegradationManifest manifest, Clock clock) {
		this.clock = clock;
		this.scope = manifest.defaults().failedDependencySheds();
		this.hysteresis = manifest.defaults().hysteresis();
		this.level = layOut(manifest, Map.of());
	}

	/**
	 * Keep what is known of every dependency the new manifest declares unchanged (same name,
	 * health URL or health indicator, and health check): its window, its state, its forcing and whether it sheds. A
	 * dependency that is new or changed starts unknown.
	 */
	@Override
	public synchronized void manifestChanged(DegradationManifest manifest) {
		Map<String, DependencyMonitor> kept = new LinkedHashMap<>();
		for (Dependency dependency : manifest.dependencies()) {
			DependencyMonitor monitor = this.monitors.get(dependency.name());
			if (monitor != null && Objects.equals(monitor.dependency().healthUrl(), dependency.healthUrl())
					&& Objects.equals(monitor.dependency().healthIndicator(), dependency.healthIndicator())
					&& monitor.dependency().healthCheck().equals(dependency.healthCheck())) {
				kept.put(dependency.name(), monitor);
			}
		}
		this.shedding.keySet().retainAll(kept.keySet());
		this.scope = manifest.defaults().failedDependencySheds();
		this.hysteresis = manifest.defaults().hysteresis();
		this.level = layOut(manifest, kept);
	}

	private LevelHysteresis layOut(DegradationManifest manifest, Map<String, DependencyMonitor> kept) {
		Map<String, DependencyMonitor> monitors = new LinkedHashMap<>();
		Map<String, List<Integer>> routesRequiring = new LinkedHashMap<>();
		Map<String, Integer> levelRequiredWhenFailed = new LinkedHashMap<>();
		for (Dependency dependency : manifest.dependencies()) {
			DependencyMonitor monitor = kept.get(dependency.name());
			monitors.put(dependency.name(), (monitor != null) ? monitor : new DependencyMonitor(dependency, this.clock));
			routesRequiring.put(dependency.name(), new ArrayList<>());
		}
		List<Integer> priorities = new ArrayList<>();
		int index = 0;
		for (Tier tier : manifest.tiers()) {
			priorities.add(tier.priority());
			for (Route route : tier.routes()) {
				for (String dependency : route.requires()) {
					routesRequiring.get(dependency).add(index);
					levelRequiredWhenFailed.merge(dependency, tier.priority(), Math::max);
				}
				index++;
			}
		}
		this.monitors = monitors;
		this.routesRequiring = routesRequiring;
		this.levelRequiredWhenFailed = levelRequiredWhenFailed;
		this.priorities = priorities.stream().distinct().sorted().toList();
		return new LevelHysteresis(priorities, this.hysteresis, this.clock.instant(),
				"no failed dependency is required");
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String kind() {
		return KIND;
	}

	/**
	 * Return what a failed dependency sheds under this signal.
	 * @return the scope
	 */
	public ShedScope scope() {
		return this.scope;
	}

	@Override
	public synchronized ShedDemand demand(Instant now) {
		return (this.scope == ShedScope.TIERS) ? tiersDemand(now) : routesDemand(now);
	}

	private ShedDemand routesDemand(Instant now) {
		this.monitors.forEach((name, monitor) -> {
			if (monitor.state() == DependencyState.FAILED) {
				this.shedding.putIfAbsent(name, now);
			}
			else {
				Instant since = this.shedding.get(name);
				if (since != null && !now.isBefore(since.plus(this.hysteresis))) {
					this.shedding.remove(name);
				}
			}
		});
		if (this.shedding.isEmpty()) {
			return ShedDemand.NONE;
		}
		Map<Integer, String> routes = new LinkedHashMap<>();
		Map<Integer, ShedHold> holds = new LinkedHashMap<>();
		List<String> reasons = new ArrayList<>();
		this.shedding.forEach((name, since) -> {
			String cause = "dependency:" + name;
			ShedHold hold = routesHold(name, since, now);
			for (Integer route : this.routesRequiring.get(name)) {
				routes.putIfAbsent(route, cause);
				holds.merge(route, hold, ShedHold::later);
			}
			reasons.add(name + ((this.monitors.get(name).state() == DependencyState.FAILED) ? " failed"
					: " recovered, held until " + since.plus(this.hysteresis) + " by the hysteresis"));
		});
		return ShedDemand.routes(routes, String.join("; ", reasons) + ": its routes are shed").withRouteHolds(holds);
	}

	/**
	 * What holds the routes of a dependency that sheds them: its failure, and then the hysteresis
	 * counted from when it began to shed them (not from when it recovered), so that a dependency
	 * that flaps sheds and restores its routes at most once per hysteresis.
	 */
	private ShedHold routesHold(String name, Instant since, Instant now) {
		Instant held = since.plus(this.hysteresis);
		String hysteresis = "hysteresis_seconds (" + this.hysteresis.toSeconds() + " s, counted from " + since
				+ ", when it began to shed them)";
		DependencyMonitor monitor = this.monitors.get(name);
		if (monitor.state() != DependencyState.FAILED) {
			return new ShedHold("dependency-hysteresis", "dependency " + name + " has recovered; " + hysteresis
					+ " holds the routes that require it until " + held, held);
		}
		DependencyStatus status = monitor.status();
		String until;
		if (status.forced()) {
			until = "it is forced down by " + status.forcedBy() + ": they come back once it is released";
		}
		else if (status.breaker() == BreakerState.OPEN) {
			until = "the breaker of its calls is open: they come back once it closes and the error rate is at or "
					+ "below recovery_threshold (" + monitor.dependency().healthCheck().recoveryThreshold() + ")";
		}
		else {
			until = "they come back once its error rate over window_seconds ("
					+ monitor.dependency().healthCheck().window().toSeconds() + " s) is at or below recovery_threshold ("
					+ monitor.dependency().healthCheck().recoveryThreshold() + ")";
		}
		return new ShedHold("dependency-failed", "dependency " + name + " failed; " + until
				+ (now.isBefore(held) ? ", and not before " + held + " (" + hysteresis + ")" : ""), null);
	}

	private ShedDemand tiersDemand(Instant now) {
		int required = 0;
		List<String> failed = new ArrayList<>();
		for (Map.Entry<String, Integer> entry : this.levelRequiredWhenFailed.entrySet()) {
			if (this.monitors.get(entry.getKey()).state() == DependencyState.FAILED) {
				required = Math.max(required, entry.getValue());
				failed.add(entry.getKey());
			}
		}
		this.level.follow(required, now, failedDependencies());
		if (this.level.level() == 0) {
			return ShedDemand.NONE;
		}
		String cause = failed.isEmpty() ? "dependency-hysteresis" : "dependency:" + String.join(",", failed);
		Map<Integer, ShedHold> holds = new LinkedHashMap<>();
		String steps = "the level steps down one tier per hysteresis_seconds (" + this.level.hysteresis().toSeconds()
				+ " s) since its last change";
		for (int priority : this.priorities) {
			if (priority > this.level.level()) {
				break;
			}
			if (priority <= required) {
				holds.put(priority, new ShedHold("dependency-failed", failedDependencies()
						+ ": the tier comes back once they recover, then " + steps, null));
			}
			else {
				Instant restoresAt = this.level.restoresAt(priority, required);
				holds.put(priority, new ShedHold("level-hysteresis", steps + " (at " + this.level.changedAt()
						+ ", to level " + this.level.level() + "); this tier's step comes at " + restoresAt, restoresAt));
			}
		}
		return ShedDemand.level(this.level.level(), cause, this.level.reason()).withLevelHolds(holds);
	}

	/**
	 * Record the result of a probe.
	 * @param dependency the dependency name
	 * @param result the result
	 * @return the change of the dependency's state, or {@code null}
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	synchronized @Nullable DependencyStateChange record(String dependency, ProbeResult result) {
		return monitor(dependency).record(result);
	}

	/**
	 * Record a transition of a dependency's circuit breaker.
	 * @param dependency the dependency name
	 * @param state the breaker's new state
	 * @return the change of the dependency's state, or {@code null}
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	synchronized @Nullable DependencyStateChange recordBreaker(String dependency, BreakerState state) {
		return monitor(dependency).recordBreaker(state);
	}

	/**
	 * Record that a dependency's circuit breaker stopped judging its calls, or was closed by hand.
	 * @param dependency the dependency name
	 * @return the change of the dependency's state, or {@code null}
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	synchronized @Nullable DependencyStateChange recordBreakerOff(String dependency) {
		return monitor(dependency).recordBreakerOff();
	}

	/**
	 * Force a dependency's state until released.
	 * @param dependency the dependency name
	 * @param state the state to force
	 * @param by who forced it
	 * @return the change of the dependency's state, or {@code null}
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	synchronized @Nullable DependencyStateChange force(String dependency, DependencyState state, String by) {
		return monitor(dependency).force(state, by);
	}

	/**
	 * Stop forcing a dependency.
	 * @param dependency the dependency name
	 * @return the change of the dependency's state, or {@code null}
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	synchronized @Nullable DependencyStateChange release(String dependency) {
		return monitor(dependency).release();
	}

	/**
	 * Judge every dependency again as its window ages.
	 * @return the changes of state, in manifest order
	 */
	synchronized List<DependencyStateChange> refresh() {
		List<DependencyStateChange> changes = new ArrayList<>();
		for (DependencyMonitor monitor : this.monitors.values()) {
			DependencyStateChange change = monitor.refresh();
			if (change != null) {
				changes.add(change);
			}
		}
		return changes;
	}

	/**
	 * Return the status of one dependency.
	 * @param dependency the dependency name
	 * @return the status
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public synchronized DependencyStatus status(String dependency) {
		return monitor(dependency).status();
	}

	/**
	 * Return the status of every dependency, in manifest order.
	 * @return the statuses
	 */
	public synchronized List<DependencyStatus> statuses() {
		return this.monitors.values().stream().map(DependencyMonitor::status).toList();
	}

	@Override
	public List<SignalOverride> runTimeOverrides() {
		List<SignalOverride> overrides = new ArrayList<>();
		for (DependencyStatus status : statuses()) {
			if (status.forced() && status.forcedAt() != null) {
				overrides.add(new SignalOverride(NAME + "/" + status.name(),
						status.state().name().toLowerCase(Locale.ROOT), String.valueOf(status.forcedBy()),
						status.forcedAt(), null));
			}
		}
		return overrides;
	}

	@Override
	public synchronized void reset() {
		this.monitors.values().forEach(DependencyMonitor::reset);
		this.shedding.clear();
		this.level.reset(this.clock.instant());
	}

	private String failedDependencies() {
		List<String> failed = new ArrayList<>();
		this.levelRequiredWhenFailed.forEach((name, level) -> {
			if (this.monitors.get(name).state() == DependencyState.FAILED) {
				failed.add(name + " failed (required up to level " + level + ")");
			}
		});
		return String.join(", ", failed);
	}

	private DependencyMonitor monitor(String name) {
		DependencyMonitor monitor = this.monitors.get(name);
		if (monitor == null) {
			throw new NoSuchElementException("No dependency named '" + name + "'; declared: "
					+ String.join(", ", this.monitors.keySet()));
		}
		return monitor;
	}

}
