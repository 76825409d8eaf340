package dev.degradation.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;
import dev.degradation.monitor.DependencyMonitor;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.DependencyStateChange;
import dev.degradation.monitor.DependencyStatus;
import dev.degradation.monitor.ProbeResult;

/**
 * Owns the shed level of one manifest. The computed level follows the dependencies: it rises at
 * once to the highest priority among tiers with a route that requires a failed dependency, and
 * comes down one tier at a time, each step only after {@code hysteresis_seconds} since the last
 * change. Simulation overrides it for as long as it is on.
 *
 * <p>Writers (probe results, forcing, simulation) are serialized; readers get the current
 * {@link DegradationState} with one volatile read. Listeners are told of each change on the
 * writer's thread, in order, while the change is being made: they must be quick and must not call
 * back into the engine (a listener that throws is logged and ignored).
 */
public final class DegradationEngine {

	private static final Log logger = LogFactory.getLog(DegradationEngine.class);

	private final DegradationManifest manifest;

	private final Clock clock;

	private final Duration hysteresis;

	private final FallbackCounts fallbackCounts;

	private final Map<String, DependencyMonitor> monitors = new LinkedHashMap<>();

	private final Map<String, Integer> levelRequiredWhenFailed = new LinkedHashMap<>();

	private final TreeSet<Integer> priorities = new TreeSet<>();

	private final List<DegradationListener> listeners = new CopyOnWriteArrayList<>();

	private final AtomicLong levelChanges = new AtomicLong();

	private volatile DegradationState state;

	private Instant computedChangedAt;

	/**
	 * Create an engine at level 0 with every dependency unknown.
	 * @param manifest the manifest whose tiers are shed
	 * @param clock the clock for windows, hysteresis and change times
	 */
	public DegradationEngine(DegradationManifest manifest, Clock clock) {
		this.manifest = manifest;
		this.clock = clock;
		this.hysteresis = manifest.defaults().hysteresis();
		this.fallbackCounts = new FallbackCounts(manifest.routes().size());
		for (Dependency dependency : manifest.dependencies()) {
			this.monitors.put(dependency.name(), new DependencyMonitor(dependency, clock));
		}
		for (Tier tier : manifest.tiers()) {
			this.priorities.add(tier.priority());
			for (Route route : tier.routes()) {
				for (String dependency : route.requires()) {
					this.levelRequiredWhenFailed.merge(dependency, tier.priority(), Math::max);
				}
			}
		}
		this.computedChangedAt = clock.instant();
		this.state = new DegradationState(0, 0, Simulation.OFF, List.of(), this.computedChangedAt, "started");
	}

	/**
	 * Return the current snapshot. Cheap enough for every request.
	 * @return the state
	 */
	public DegradationState state() {
		return this.state;
	}

	/**
	 * Return the manifest this engine sheds.
	 * @return the manifest
	 */
	public DegradationManifest manifest() {
		return this.manifest;
	}

	/**
	 * Return the per-route fallback counts.
	 * @return the counts
	 */
	public FallbackCounts fallbackCounts() {
		return this.fallbackCounts;
	}

	/**
	 * Return how many times the active level changed since start.
	 * @return the count
	 */
	public long levelChanges() {
		return this.levelChanges.get();
	}

	/**
	 * Register a listener for changes.
	 * @param listener the listener
	 */
	public void addListener(DegradationListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * Return the status of every dependency, in manifest order.
	 * @return the statuses
	 */
	public List<DependencyStatus> dependencies() {
		return this.monitors.values().stream().map(DependencyMonitor::status).toList();
	}

	/**
	 * Return the status of one dependency.
	 * @param name the dependency name
	 * @return the status
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public DependencyStatus dependency(String name) {
		return monitor(name).status();
	}

	/**
	 * Record the result of a probe and derive the level again.
	 * @param dependency the dependency name
	 * @param result the result
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public synchronized void recordProbe(String dependency, ProbeResult result) {
		DependencyMonitor monitor = monitor(dependency);
		DependencyStateChange change = monitor.record(result);
		notifyListeners((listener) -> listener.probed(dependency, result));
		dependencyChanged(change);
		evaluate();
	}

	/**
	 * Force a dependency's state, whatever its probes say, until released. Exercises the real
	 * path from dependency state to shed level.
	 * @param dependency the dependency name
	 * @param forced the state to force
	 * @return the dependency's status after the change
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public synchronized DependencyStatus forceDependency(String dependency, DependencyState forced) {
		DependencyMonitor monitor = monitor(dependency);
		dependencyChanged(monitor.force(forced));
		evaluate();
		return monitor.status();
	}

	/**
	 * Stop forcing a dependency; its probes decide again.
	 * @param dependency the dependency name
	 * @return the dependency's status after the change
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public synchronized DependencyStatus releaseDependency(String dependency) {
		DependencyMonitor monitor = monitor(dependency);
		dependencyChanged(monitor.release());
		evaluate();
		return monitor.status();
	}

	/**
	 * Derive the level again from the dependency states and the time: ages the probe windows and
	 * takes a step down once the hysteresis has passed. Called after every probe; call it on a
	 * schedule when there are no probes.
	 * @return the state after
	 */
	public synchronized DegradationState evaluate() {
		for (DependencyMonitor monitor : this.monitors.values()) {
			dependencyChanged(monitor.refresh());
		}
		Instant now = this.clock.instant();
		int required = requiredLevel();
		if (required > this.state.computedLevel()) {
			applyComputed(required, now, "raised to " + required + ": " + failedDependencies());
		}
		// Each step down waits the hysteresis since the last change; with no hysteresis the steps
		// follow one another at once.
		while (required < this.state.computedLevel() && !now.isBefore(this.computedChangedAt.plus(this.hysteresis))) {
			Integer lower = this.priorities.lower(this.state.computedLevel());
			int next = Math.max(required, (lower != null) ? lower : 0);
			applyComputed(next, now, "stepped down to " + next + " after " + this.hysteresis.toSeconds()
					+ " s of hysteresis; " + ((required == 0) ? "no failed dependency is required"
							: "still required: " + required + " (" + failedDependencies() + ")"));
		}
		return this.state;
	}

	/**
	 * Force the active level, whatever the dependencies do, until {@link #stopSimulation()}.
	 * @param level the level to simulate, from 0 to the highest tier priority
	 * @return the new state
	 * @throws IllegalArgumentException if the level is outside that range
	 */
	public synchronized DegradationState simulate(int level) {
		int max = this.manifest.maxPriority();
		if (level < 0 || level > max) {
			throw new IllegalArgumentException("Shed level " + level + " is out of range: use 0 (nothing shed) to "
					+ max + " (every tier shed, the highest tier priority in the manifest)");
		}
		return apply(new Simulation(true, level), this.state.computedLevel(), "simulation at level " + level);
	}

	/**
	 * Turn simulation off; the computed level applies again at once.
	 * @return the new state
	 */
	public synchronized DegradationState stopSimulation() {
		DegradationState current = this.state;
		if (!current.simulation().enabled()) {
			return current;
		}
		return apply(Simulation.OFF, current.computedLevel(),
				"simulation off, computed level " + current.computedLevel() + " applies");
	}

	private void applyComputed(int computed, Instant now, String reason) {
		this.computedChangedAt = now;
		apply(this.state.simulation(), computed, reason);
	}

	private DegradationState apply(Simulation simulation, int computed, String reason) {
		DegradationState previous = this.state;
		int level = simulation.enabled() ? simulation.level() : computed;
		boolean levelChanged = previous.level() != level;
		Instant now = this.clock.instant();
		DegradationState next = new DegradationState(level, computed, simulation, shedTiers(level),
				levelChanged ? now : previous.changedAt(), levelChanged ? reason : previous.reason());
		this.state = next;
		if (levelChanged) {
			this.levelChanges.incrementAndGet();
			LevelChange change = new LevelChange(previous.level(), level, next.shedTiers(), reason, now);
			notifyListeners((listener) -> listener.levelChanged(change));
		}
		return next;
	}

	private int requiredLevel() {
		int required = 0;
		for (Map.Entry<String, Integer> entry : this.levelRequiredWhenFailed.entrySet()) {
			if (this.monitors.get(entry.getKey()).state() == DependencyState.FAILED) {
				required = Math.max(required, entry.getValue());
			}
		}
		return required;
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

	private void dependencyChanged(@Nullable DependencyStateChange change) {
		if (change != null) {
			notifyListeners((listener) -> listener.dependencyChanged(change));
		}
	}

	/**
	 * Tell every listener, each on its own: a listener that throws is logged and never stops the
	 * change it is told of, nor the listeners after it.
	 */
	private void notifyListeners(Consumer<DegradationListener> notification) {
		for (DegradationListener listener : this.listeners) {
			try {
				notification.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("Degradation listener " + listener.getClass().getName() + " failed", ex);
			}
		}
	}

	private DependencyMonitor monitor(String name) {
		DependencyMonitor monitor = this.monitors.get(name);
		if (monitor == null) {
			throw new NoSuchElementException("No dependency named '" + name + "'; declared: "
					+ String.join(", ", this.monitors.keySet()));
		}
		return monitor;
	}

	private List<String> shedTiers(int level) {
		List<String> names = new ArrayList<>();
		for (Tier tier : this.manifest.tiers()) {
			if (tier.priority() <= level) {
				names.add(tier.name());
			}
		}
		return names;
	}

}
