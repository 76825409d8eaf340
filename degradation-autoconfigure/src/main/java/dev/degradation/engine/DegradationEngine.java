package dev.degradation.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.monitor.BreakerState;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.DependencyStateChange;
import dev.degradation.monitor.DependencyStatus;
import dev.degradation.monitor.ProbeResult;

/**
 * Owns what one manifest sheds. It combines the demands of its {@link ShedSignal shed signals}
 * into one immutable {@link DegradationState}: the active level is the highest level demanded
 * (or, while simulation is on, exactly the simulated one), and a route is shed when the level
 * sheds its tier or when a signal demands the route itself. Each signal owns its own timing (the
 * dependencies' hysteresis, for example), so that adding a source of shedding is one class.
 *
 * <p>Two signals are built in: the {@link DependencySignal dependencies} and
 * {@link SimulationSignal simulation}; others are given to the constructor. Writers are serialized;
 * readers get the current state with one volatile read. Listeners are told of every change in
 * order, after the engine's lock is released, on the executor given to the constructor (a
 * listener that throws is logged and ignored).
 *
 * <p>The engine holds the lock, the current state and the inputs' entry points; how the signals'
 * demands combine into a state is {@link SignalCombiner}'s, and what a change tells the listeners
 * is {@link Notifications}'.
 */
public final class DegradationEngine {

	private final Clock clock;

	private final DependencySignal dependencies;

	private final SimulationSignal simulation;

	private final List<ShedSignal> signals;

	private final SignalCombiner combiner;

	/** What the engine knows of its manifest; replaced whole, under the lock, on a reload. */
	private volatile ManifestLayout layout;

	private final List<DegradationListener> listeners = new CopyOnWriteArrayList<>();

	private final Notifications notifications;

	private final AtomicLong levelChanges = new AtomicLong();

	private volatile DegradationState state;

	/**
	 * Create an engine at level 0 with every dependency unknown, with only the built-in signals,
	 * that tells its listeners on the thread that made the change, once the lock is released.
	 * @param manifest the manifest whose tiers are shed
	 * @param clock the clock for windows, hysteresis and change times
	 */
	public DegradationEngine(DegradationManifest manifest, Clock clock) {
		this(manifest, clock, List.of(), Runnable::run);
	}

	/**
	 * Create an engine at level 0 with every dependency unknown.
	 * @param manifest the manifest whose tiers are shed
	 * @param clock the clock for windows, hysteresis and change times
	 * @param signals further shed signals, after the built-in ones, each with a unique name
	 * @param notifier where listeners are told of changes, one change after another; an executor
	 * with a thread of its own keeps a slow listener from holding up the thread that made the
	 * change
	 * @throws IllegalArgumentException if two signals have the same name
	 */
	public DegradationEngine(DegradationManifest manifest, Clock clock, List<? extends ShedSignal> signals,
			Executor notifier) {
		this.clock = clock;
		this.dependencies = new DependencySignal(manifest, clock);
		this.simulation = new SimulationSignal(manifest.maxPriority());
		List<ShedSignal> all = new ArrayList<>();
		all.add(this.dependencies);
		all.add(this.simulation);
		all.addAll(signals);
		this.combiner = new SignalCombiner(all, this.simulation);
		this.signals = this.combiner.signals();
		this.layout = new ManifestLayout(manifest, this.combiner.kinds());
		this.notifications = new Notifications(this.listeners, notifier);
		this.state = new DegradationState(0, 0, Simulation.OFF, List.of(), clock.instant(), "started", Map.of(),
				new String[this.layout.routes.size()], new String[this.layout.routes.size()], false,
				this.layout.manifest, this.layout.fallbackCounts);
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
		return this.layout.manifest;
	}

	/**
	 * Return the clock the engine judges time by.
	 * @return the clock
	 */
	public Clock clock() {
		return this.clock;
	}

	/**
	 * Return the per-route fallback counts of the current manifest (the request path counts in
	 * those of the state it read, {@link DegradationState#fallbackCounts()}).
	 * @return the counts
	 */
	public FallbackCounts fallbackCounts() {
		return this.layout.fallbackCounts;
	}

	/**
	 * Return how many times the active level changed since start.
	 * @return the count
	 */
	public long levelChanges() {
		return this.levelChanges.get();
	}

	/**
	 * Return the engine's signals, the built-in ones first. They are fixed for the engine's life:
	 * a reload keeps them.
	 * @return the signals
	 */
	public List<ShedSignal> signals() {
		return this.signals;
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
		return this.dependencies.statuses();
	}

	/**
	 * Return the status of one dependency.
	 * @param name the dependency name
	 * @return the status
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public DependencyStatus dependency(String name) {
		return this.dependencies.status(name);
	}

	/**
	 * Record the result of a probe and derive the state again.
	 * @param dependency the dependency name
	 * @param result the result
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public void recordProbe(String dependency, ProbeResult result) {
		change(() -> {
			DependencyStateChange change = this.dependencies.record(dependency, result);
			this.notifications.add((listener) -> listener.probed(dependency, result));
			this.notifications.dependencyChanged(change);
		});
	}

	/**
	 * Record a transition of the circuit breaker that guards the application's calls to a
	 * dependency and derive the state again: an open breaker fails the dependency at once, so the
	 * routes that require it are shed within one breaker trip instead of one probe window.
	 * @param dependency the dependency name
	 * @param state the breaker's new state
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public void recordBreaker(String dependency, BreakerState state) {
		change(() -> {
			this.notifications.dependencyChanged(this.dependencies.recordBreaker(dependency, state));
		});
	}

	/**
	 * Record that the circuit breaker that guards the application's calls to a dependency was
	 * turned off (Resilience4j's {@code DISABLED} or {@code METRICS_ONLY}), or closed by hand
	 * before its trial calls were made, and derive the state again: no call showed health, even
	 * when the breaker was half-open, so the probes judge from scratch.
	 * @param dependency the dependency name
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public void recordBreakerOff(String dependency) {
		change(() -> {
			this.notifications.dependencyChanged(this.dependencies.recordBreakerOff(dependency));
		});
	}

	/**
	 * Force a dependency's state, whatever its probes say, until released. Exercises the real
	 * path from dependency state to what is shed.
	 * @param dependency the dependency name
	 * @param forced the state to force
	 * @return the dependency's status after the change
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public DependencyStatus forceDependency(String dependency, DependencyState forced) {
		return forceDependency(dependency, forced, "application");
	}

	/**
	 * Force a dependency's state, whatever its probes say, until released, saying who did: the
	 * endpoint lists it among the overrides with that name and the time.
	 * @param dependency the dependency name
	 * @param forced the state to force
	 * @param by who forced it, such as the operator's name
	 * @return the dependency's status after the change
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public DependencyStatus forceDependency(String dependency, DependencyState forced, String by) {
		change(() -> {
			this.notifications.dependencyChanged(this.dependencies.force(dependency, forced, by));
		});
		return this.dependencies.status(dependency);
	}

	/**
	 * Stop forcing a dependency; its probes decide again.
	 * @param dependency the dependency name
	 * @return the dependency's status after the change
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public DependencyStatus releaseDependency(String dependency) {
		change(() -> {
			this.notifications.dependencyChanged(this.dependencies.release(dependency));
		});
		return this.dependencies.status(dependency);
	}

	/**
	 * Force the active level, whatever the other signals demand as a level, until
	 * {@link #stopSimulation()}.
	 * @param level the level to simulate, from 0 to the highest tier priority
	 * @return the new state
	 * @throws IllegalArgumentException if the level is outside that range
	 */
	public DegradationState simulate(int level) {
		return simulate(level, null, "anonymous");
	}

	/**
	 * Force the active level, whatever the other signals demand as a level, until
	 * {@link #stopSimulation()} or until its time to live ends.
	 * @param level the level to simulate, from 0 to the highest tier priority
	 * @param ttl how long it holds, or {@code null} for until turned off
	 * @param by who turns it on, for the record
	 * @return the new state
	 * @throws IllegalArgumentException if the level is outside that range
	 */
	public DegradationState simulate(int level, @Nullable Duration ttl, String by) {
		return change(() -> this.simulation.simulate(level, ttl, by, this.clock.instant()));
	}

	/**
	 * Return the engine's simulation signal, to read who set simulation and until when.
	 * @return the signal
	 */
	public SimulationSignal simulation() {
		return this.simulation;
	}

	/**
	 * Turn simulation off; the computed level applies again at once.
	 * @return the new state
	 */
	public DegradationState stopSimulation() {
		return change(() -> {
			this.simulation.stop();
		});
	}

	/**
	 * Derive the state again from every signal and the time: ages the dependencies' windows and
	 * lets the hysteresis take its steps. Called after every change of an input; call it on a
	 * schedule, and after changing a signal of your own.
	 * @return the state after
	 */
	public DegradationState evaluate() {
		return change(() -> {
		});
	}

	/**
	 * Put the engine back as it started: simulation off, forced dependencies released, every
	 * window emptied, every hysteresis forgotten and every signal reset, so that a test or an
	 * operator starts from a known state. Listeners are told of the changes this makes.
	 * @return the state after, which sheds nothing unless a signal demands it again at once
	 */
	public DegradationState reset() {
		return change(() -> {
			this.signals.forEach(ShedSignal::reset);
		});
	}

	/**
	 * Replace the manifest, atomically: the next state is derived from the new manifest's routes
	 * and tiers, and requests see either the old state or the new one, never a mix. What is known
	 * of a dependency that is unchanged (same name, health URL and health check) is kept; every
	 * signal is told of the new manifest ({@link ShedSignal#manifestChanged}), switches are
	 * re-applied, and a simulation beyond the new highest priority ends. Listeners are told with
	 * {@link DegradationListener#manifestReplaced}. Fallback counts start again for the new routes.
	 * @param manifest the new manifest, already validated
	 * @return the state after
	 */
	public DegradationState replace(DegradationManifest manifest) {
		DegradationManifest[] previous = new DegradationManifest[1];
		DegradationState after = change(() -> {
			previous[0] = this.layout.manifest;
			this.layout = new ManifestLayout(manifest, this.combiner.kinds());
			this.signals.forEach((signal) -> signal.manifestChanged(manifest));
			ManifestReplaced replaced = new ManifestReplaced(previous[0], manifest, this.clock.instant());
			this.notifications.add((listener) -> listener.manifestReplaced(replaced));
		});
		return after;
	}

	/**
	 * Make a change under the lock, derive the state again, and tell the listeners once the lock
	 * is released.
	 */
	private DegradationState change(Runnable mutation) {
		DegradationState after;
		try {
			synchronized (this) {
				mutation.run();
				after = derive();
			}
		}
		finally {
			this.notifications.dispatch();
		}
		return after;
	}

	/** Called under the lock. */
	private DegradationState derive() {
		for (DependencyStateChange change : this.dependencies.refresh()) {
			this.notifications.dependencyChanged(change);
		}
		Instant now = this.clock.instant();
		DegradationState previous = this.state;
		DegradationState next = this.combiner.next(previous, this.layout, now);
		if (next != previous) {
			this.state = next;
			if (next.level() != previous.level()) {
				this.levelChanges.incrementAndGet();
			}
			this.notifications.stateChanged(previous, next, this.layout.routes, now);
		}
		return next;
	}

}
