package dev.degradation.manifest;

import java.util.List;

/**
 * A group of routes shed together. Tiers are shed in ascending priority: shed level {@code L}
 * sheds every tier whose priority is at most {@code L}.
 *
 * @param name the tier name, as shown in headers, metrics and the Actuator endpoint
 * @param priority the shed order, 1 or more; lower is shed first
 * @param routes the routes of this tier
 * @param position where the tier is declared
 */
public record Tier(String name, int priority, List<Route> routes, Position position) {

	public Tier {
		routes = List.copyOf(routes);
	}

}
