package dev.degradation.engine;

import java.time.Instant;
import java.util.List;

/**
 * An immutable snapshot of what the service sheds right now. A new snapshot replaces the old one
 * on every change; readers never see a half-made change.
 *
 * @param level the active shed level: every tier whose priority is at most this is shed
 * @param computedLevel the level the engine computed from its inputs, which applies whenever
 * simulation is off
 * @param simulation the simulation setting
 * @param shedTiers the names of the shed tiers, in shed order
 * @param changedAt when the active level last changed (or the engine started)
 * @param reason why the active level is what it is
 */
public record DegradationState(int level, int computedLevel, Simulation simulation, List<String> shedTiers,
		Instant changedAt, String reason) {

	private static final String[] HEADER_VALUES = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9" };

	public DegradationState {
		shedTiers = List.copyOf(shedTiers);
	}

	/**
	 * Return whether a tier of the given priority is shed in this state.
	 * @param priority the tier priority
	 * @return whether the tier is shed
	 */
	public boolean sheds(int priority) {
		return priority <= this.level;
	}

	/**
	 * Return the level as the text of the {@code X-Degradation-Level} header, without allocating
	 * for the common levels.
	 * @return the header value
	 */
	public String levelHeader() {
		return (this.level >= 0 && this.level < HEADER_VALUES.length) ? HEADER_VALUES[this.level]
				: Integer.toString(this.level);
	}

}
