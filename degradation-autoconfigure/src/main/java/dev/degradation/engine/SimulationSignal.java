package dev.degradation.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DegradationManifest;

/**
 * Simulation, for CI and drills: while on, the active level is exactly the simulated one, whatever
 * other signals demand as a level (routes they demand are still shed, so that forcing a
 * dependency down during a simulation exercises the real path). Applies and ends at once, without
 * hysteresis.
 */
public final class SimulationSignal implements ShedSignal {

	/** The kind of this signal, the first part of its causes. */
	public static final String KIND = "simulation";

	/** The name of this signal. */
	public static final String NAME = "simulation";

	private volatile int maxLevel;

	private static final Log logger = LogFactory.getLog(SimulationSignal.class);

	private volatile Simulation simulation = Simulation.OFF;

	private @Nullable SimulationOverride override;

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

	@Override
	public String kind() {
		return KIND;
	}

	/**
	 * Return the simulation setting.
	 * @return the setting
	 */
	public Simulation simulation() {
		return this.simulation;
	}

	/**
	 * Return who turned simulation on, when, and until when; {@code null} while it is off.
	 * @return the setting
	 */
	public synchronized @Nullable SimulationOverride override() {
		return this.override;
	}

	@Override
	public List<SignalOverride> runTimeOverrides() {
		SimulationOverride set = override();
		return (set != null) ? List.of(new SignalOverride(NAME, "level " + set.level(), set.by(), set.at(), set.until()))
				: List.of();
	}

	/**
	 * Turn simulation on at a level.
	 * @param level the level, from 0 to the highest tier priority
	 * @param ttl how long it holds, or {@code null} for until turned off
	 * @param by who turns it on
	 * @param now the current time
	 * @throws IllegalArgumentException if the level is outside that range
	 */
	synchronized void simulate(int level, @Nullable Duration ttl, String by, Instant now) {
		if (level < 0 || level > this.maxLevel) {
			throw new IllegalArgumentException("Shed level " + level + " is out of range: use 0 (nothing shed) to "
					+ this.maxLevel + " (every tier shed, the highest tier priority in the manifest)");
		}
		this.simulation = new Simulation(true, level);
		this.override = new SimulationOverride(level, by, now, (ttl != null) ? now.plus(ttl) : null);
	}

	/**
	 * Turn simulation off.
	 */
	synchronized void stop() {
		this.simulation = Simulation.OFF;
		this.override = null;
	}

	@Override
	public synchronized ShedDemand demand(Instant now) {
		SimulationOverride current = this.override;
		if (current != null && current.until() != null && !now.isBefore(current.until())) {
			logger.info("Simulation at level " + current.level() + " set by " + current.by() + " at " + current.at()
					+ " expired at " + current.until());
			stop();
		}
		return demand();
	}

	private ShedDemand demand() {
		Simulation current = this.simulation;
		if (!current.enabled()) {
			return ShedDemand.NONE;
		}
		ShedDemand demand = new ShedDemand(current.level(), true, NAME, Map.of(),
				"simulation at level " + current.level());
		SimulationOverride set = this.override;
		if (set == null) {
			return demand;
		}
		String detail = "simulation at level " + set.level() + " set by " + set.by() + " at " + set.at()
				+ ((set.until() != null) ? ", until " + set.until()
						: ", until turned off (POST {\"enabled\": false} or DELETE on the endpoint)");
		return demand.withLevelHolds(Map.of(set.level(), new ShedHold(NAME, detail, set.until())));
	}

	@Override
	public void reset() {
		stop();
	}

	/**
	 * A simulation beyond the new manifest's highest priority ends, since its level would mean
	 * nothing there; one within it goes on.
	 */
	@Override
	public synchronized void manifestChanged(DegradationManifest manifest) {
		this.maxLevel = manifest.maxPriority();
		if (this.simulation.enabled() && this.simulation.level() > this.maxLevel) {
			logger.info("Simulation at level " + this.simulation.level() + " ended: the new manifest's highest "
					+ "priority is " + this.maxLevel);
			stop();
		}
	}

	/**
	 * Simulation as an operator or CI set it.
	 *
	 * @param level the simulated level
	 * @param by who set it: the authenticated principal's name, or {@code anonymous}
	 * @param at when it was set
	 * @param until when it ends by itself, or {@code null} for never
	 */
	public record SimulationOverride(int level, String by, Instant at, @Nullable Instant until) {

	}

}
