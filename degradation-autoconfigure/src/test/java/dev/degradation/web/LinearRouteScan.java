package dev.degradation.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The obviously right lookup, kept as the oracle of {@link RouteTable}: every pattern of the
 * method, most specific first (a stable sort, explicit {@code HEAD} routes before {@code GET}
 * routes), first match wins.
 */
final class LinearRouteScan {

	private final Map<String, List<ShedRoute>> routesByMethod = new HashMap<>();

	LinearRouteScan(List<ShedRoute> routes) {
		Map<String, List<ShedRoute>> grouped = new HashMap<>();
		for (ShedRoute route : routes) {
			grouped.computeIfAbsent(route.route().method(), (method) -> new ArrayList<>()).add(route);
		}
		grouped.forEach((method, candidates) -> this.routesByMethod.put(method, sorted(candidates)));
		List<ShedRoute> head = new ArrayList<>(grouped.getOrDefault("HEAD", List.of()));
		head.addAll(grouped.getOrDefault("GET", List.of()));
		this.routesByMethod.put("HEAD", sorted(head));
	}

	private static List<ShedRoute> sorted(List<ShedRoute> routes) {
		List<ShedRoute> copy = new ArrayList<>(routes);
		copy.sort(Comparator.comparing(ShedRoute::pattern, PathPattern.SPECIFICITY_COMPARATOR));
		return copy;
	}

	@Nullable ShedRoute find(String method, PathContainer path) {
		for (ShedRoute candidate : this.routesByMethod.getOrDefault(method, List.of())) {
			if (candidate.pattern().matches(path)) {
				return candidate;
			}
		}
		return null;
	}

}
