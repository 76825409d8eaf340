package dev.degradation.engine;

import java.time.Instant;
import java.util.List;

/**
 * A change of which routes are shed, as told to {@link DegradationListener listeners}: logged
 * once and published as an application event. Unlike {@link LevelChange}, it also tells of routes
 * shed or restored without a change of the level (a failed dependency sheds only the routes that
 * require it).
 *
 * @param shed the routes shed by this change, each as {@code METHOD /pattern (cause)}
 * @param restored the routes no longer shed after this change, each as {@code METHOD /pattern}
 * @param at when it changed
 */
public record ShedChange(List<String> shed, List<String> restored, Instant at) {

	public ShedChange {
		shed = List.copyOf(shed);
		restored = List.copyOf(restored);
	}

}
