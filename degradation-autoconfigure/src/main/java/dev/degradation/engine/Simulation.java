package dev.degradation.engine;

/**
 * Whether the shed level is forced for testing, and to what. While simulation is on, the
 * simulated level is the active level whatever the dependencies do.
 *
 * @param enabled whether simulation is on
 * @param level the simulated level; 0 when simulation is off
 */
public record Simulation(boolean enabled, int level) {

	/** Simulation off. */
	public static final Simulation OFF = new Simulation(false, 0);

}
