package dev.degradation.engine;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Tier;

/**
 * Owns the active shed level of one manifest. Writers (simulation, and the dependency monitors)
 * are serialized; readers get the current {@link DegradationState} with one volatile read.
 */
public final class DegradationEngine {

	private final DegradationManifest manifest;

	private final Clock clock;

	private final FallbackCounts fallbackCounts;

	private final List<DegradationListener> listeners = new CopyOnWriteArrayList<>();

	private volatile DegradationState state;

	/**
	 * Create an engine at level 0.
	 * @param manifest the manifest whose tiers are shed
	 * @param clock the clock for change times
	 */
	public DegradationEngine(DegradationManifest manifest, Clock clock) {
		this.manifest = manifest;
		this.clock = clock;
		this.fallbackCounts = new FallbackCounts(manifest.routes().size());
		this.state = new DegradationState(0, 0, Simulation.OFF, List.of(), clock.instant(), "started");
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
	 * Register a listener for changes.
	 * @param listener the listener
	 */
	public void addListener(DegradationListener listener) {
		this.listeners.add(listener);
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
		return apply(level, this.state.computedLevel(), new Simulation(true, level),
				"simulation at level " + level);
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
		return apply(current.computedLevel(), current.computedLevel(), Simulation.OFF,
				"simulation off, computed level " + current.computedLevel() + " applies");
	}

	private DegradationState apply(int level, int computedLevel, Simulation simulation, String reason) {
		DegradationState previous = this.state;
		boolean levelChanged = previous.level() != level;
		DegradationState next = new DegradationState(level, computedLevel, simulation, shedTiers(level),
				levelChanged ? this.clock.instant() : previous.changedAt(), levelChanged ? reason : previous.reason());
		this.state = next;
		if (levelChanged) {
			LevelChange change = new LevelChange(previous.level(), level, next.shedTiers(), reason, next.changedAt());
			for (DegradationListener listener : this.listeners) {
				listener.levelChanged(change);
			}
		}
		return next;
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
