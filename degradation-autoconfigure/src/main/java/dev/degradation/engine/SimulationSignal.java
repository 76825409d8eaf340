package dev.degradation.engine;

import java.time.Instant;
import java.util.Map;

/**
 * Simulation, for CI and drills: while on, the active level is exactly the simulated one, whatever
 * other signals demand as a level (routes they demand are still shed, so that forcing a
 * dependency down during a simulation exercises the real path). Applies and ends at once, without
 * hysteresis.
 */
public final class SimulationSignal implements ShedSignal {

	/** The name of this signal. */
	public static final String NAME = "simulation";

	private final int maxLevel;

	private volatile Simulation simulation = Simulation.OFF;

	/**
	 * Create the signal, off.
	 * @param maxLevel the highest level that can be simulated, the manifest's highest priority
	 */
	public SimulationSignal(int maxLevel) {
		this.maxLevel = maxLevel;
	}

	@Override
	public String name() {
		return NAME;
	}

	/**
	 * Return the simulation setting.
	 * @return the setting
	 */
	public Simulation simulation() {
		return this.simulation;
	}

	/**
	 * Turn simulation on at a level.
	 * @param level the level, from 0 to the highest tier priority
	 * @throws IllegalArgumentException if the level is outside that range
	 */
	void simulate(int level) {
		if (level < 0 || level > this.maxLevel) {
			throw new IllegalArgumentException("Shed level " + level + " is out of range: use 0 (nothing shed) to "
					+ this.maxLevel + " (every tier shed, the highest tier priority in the manifest)");
		}
		this.simulation = new Simulation(true, level);
	}

	/**
	 * Turn simulation off.
	 */
	void stop() {
		this.simulation = Simulation.OFF;
	}

	@Override
	public ShedDemand demand(Instant now) {
		Simulation current = this.simulation;
		if (!current.enabled()) {
			return ShedDemand.NONE;
		}
		return new ShedDemand(current.level(), true, NAME, Map.of(),
				"simulation at level " + current.level());
	}

	@Override
	public void reset() {
		stop();
	}

}
