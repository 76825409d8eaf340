package dev.degradation.engine;

import java.time.Instant;
import java.util.List;

/**
 * A change of the active shed level, as told to {@link DegradationListener listeners}: logged
 * once, published as an application event and counted.
 *
 * @param previousLevel the level before the change
 * @param level the level after the change
 * @param shedTiers the tiers shed after the change, in shed order
 * @param reason why the level changed
 * @param at when it changed
 */
public record LevelChange(int previousLevel, int level, List<String> shedTiers, String reason, Instant at) {

	public LevelChange {
		shedTiers = List.copyOf(shedTiers);
	}

}
