package dev.degradation.web;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;

/**
 * The manifest's routes compiled once for lookup by (method, path) on every request. Patterns
 * are Spring's {@link PathPattern}s, sorted as Spring MVC sorts them, so that the most specific
 * pattern wins just as it does when MVC picks a handler. {@code HEAD} requests also match
 * {@code GET} routes, as in MVC. A lookup tests only the patterns that start with the literal
 * segments the path starts with ({@link RouteIndex}), not every pattern of the manifest.
 */
public final class RouteTable {

	private static final ShedRoute[] NONE = new ShedRoute[0];

	private static final Comparator<ShedRoute> SPECIFICITY = Comparator.comparing(ShedRoute::pattern,
			PathPattern.SPECIFICITY_COMPARATOR);

	/** How many methods a manifest may name (the manifest reader refuses others); see {@link #slot}. */
	private static final int METHODS = 7;

	/** The routes of each method, at the method's slot; {@code null} for a method without routes. */
	private final @Nullable RouteIndex[] routesByMethod;

	private final List<ShedRoute> routes;

	private final DegradationManifest manifest;

	private final boolean keepsCopies;

	private final FallbackKinds kinds;

	private RouteTable(@Nullable RouteIndex[] routesByMethod, List<ShedRoute> routes, DegradationManifest manifest,
			FallbackKinds kinds) {
		this.routesByMethod = routesByMethod;
		this.routes = routes;
		this.manifest = manifest;
		this.kinds = kinds;
		this.keepsCopies = routes.stream().anyMatch((route) -> route.writer() instanceof FallbackWriter.Stale);
	}

	/**
	 * Return the manifest this table was compiled from.
	 * @return the manifest
	 */
	public DegradationManifest manifest() {
		return this.manifest;
	}

	/**
	 * Compile the routes of a manifest.
	 * @param manifest the manifest
	 * @return the route table
	 */
	public static RouteTable compile(DegradationManifest manifest) {
		return compile(manifest, new StaleAnswers(StaleAnswers.Limits.DEFAULT, Clock.systemUTC()));
	}

	/**
	 * Compile the routes of a manifest of built-in fallback kinds.
	 * @param manifest the manifest
	 * @param staleAnswers where the {@code stale} routes keep their copies
	 * @return the route table
	 */
	public static RouteTable compile(DegradationManifest manifest, StaleAnswers staleAnswers) {
		return compile(manifest, staleAnswers, FallbackKinds.builtIn());
	}

	/**
	 * Compile the routes of a manifest.
	 * @param manifest the manifest
	 * @param staleAnswers where the {@code stale} routes keep their copies
	 * @param kinds the fallback kinds, which write the answers of their routes
	 * @return the route table
	 * @throws IllegalArgumentException if a route's fallback is of a kind that is not registered
	 */
	public static RouteTable compile(DegradationManifest manifest, StaleAnswers staleAnswers, FallbackKinds kinds) {
		PathPatternParser parser = PathPatternParser.defaultInstance;
		List<ShedRoute> routes = new ArrayList<>();
		for (Tier tier : manifest.tiers()) {
			for (Route route : tier.routes()) {
				routes.add(new ShedRoute(route, routes.size(), tier.priority(), parser.parse(route.path()),
						kinds.writer(route, staleAnswers)));
			}
		}
		Map<String, List<ShedRoute>> grouped = new HashMap<>();
		for (ShedRoute route : routes) {
			grouped.computeIfAbsent(route.route().method(), (method) -> new ArrayList<>()).add(route);
		}
		// HEAD is answered by GET handlers unless a HEAD route is declared; on equal specificity
		// the explicit HEAD route wins, as it does in MVC. The sort is stable.
		List<ShedRoute> head = new ArrayList<>(grouped.getOrDefault("HEAD", List.of()));
		head.addAll(grouped.getOrDefault("GET", List.of()));
		if (!head.isEmpty()) {
			grouped.put("HEAD", head);
		}
		RouteIndex[] byMethod = new RouteIndex[METHODS];
		grouped.forEach((method, candidates) -> {
			int slot = slot(method);
			if (slot < 0) {
				throw new IllegalArgumentException("Unsupported HTTP method '" + method + "'");
			}
			byMethod[slot] = indexed(candidates);
		});
		return new RouteTable(byMethod, List.copyOf(routes), manifest, kinds);
	}

	private static RouteIndex indexed(List<ShedRoute> routes) {
		List<ShedRoute> copy = new ArrayList<>(routes);
		copy.sort(SPECIFICITY);
		return RouteIndex.of(copy.toArray(NONE));
	}

	/**
	 * Find the route of a request.
	 * @param method the HTTP method
	 * @param path the path within the application, as Spring MVC parses it
	 * @return the most specific matching route, or {@code null}
	 */
	public @Nullable ShedRoute find(String method, PathContainer path) {
		RouteIndex index = index(method);
		return (index != null) ? index.find(path) : null;
	}

	/**
	 * Return the routes of one method, so that a caller can tell that a method has none before it
	 * parses the request's path.
	 * @param method the HTTP method
	 * @return the method's routes, or {@code null} when it has none
	 */
	@Nullable RouteIndex index(String method) {
		int slot = slot(method);
		return (slot >= 0) ? this.routesByMethod[slot] : null;
	}

	/**
	 * The slot of a method in the table, or -1 for a method no manifest can name. A string switch,
	 * not a map: the probe of {@code Map.copyOf}'s table divides ({@code Math.floorMod}), which the
	 * profile of the decision showed at a tenth of a lookup.
	 */
	private static int slot(String method) {
		return switch (method) {
			case "GET" -> 0;
			case "HEAD" -> 1;
			case "POST" -> 2;
			case "PUT" -> 3;
			case "PATCH" -> 4;
			case "DELETE" -> 5;
			case "OPTIONS" -> 6;
			default -> -1;
		};
	}

	/**
	 * Return whether some route is {@code stale}: then the live {@code GET} requests are looked up
	 * too, so that their answers can be kept.
	 * @return whether a route keeps copies of its answers
	 */
	public boolean keepsCopies() {
		return this.keepsCopies;
	}

	/**
	 * Return the fallback kinds that wrote the answers of the routes, so that a reloaded manifest
	 * and the contract tests use the same.
	 * @return the kinds
	 */
	public FallbackKinds kinds() {
		return this.kinds;
	}

	/**
	 * Return every compiled route, in shed order.
	 * @return the routes
	 */
	public List<ShedRoute> routes() {
		return this.routes;
	}

}
