package dev.degradation.web;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestProblem;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Suggestions;
import dev.degradation.manifest.Tier;

/**
 * Compares the manifest with the application's request mappings: a manifest route that no handler
 * serves is almost always a typo or a removed endpoint, which would otherwise fail silently (the
 * route would never be shed, because no request ever reaches it); handlers that no manifest route
 * covers are the application's core routes.
 *
 * <p>A route and a handler overlap when their patterns are the same (whatever the variable names),
 * or when a concrete path made from one matches the other, and the handler accepts the route's
 * method ({@code HEAD} routes are served by {@code GET} handlers).
 */
public final class ManifestRouteCheck {

	private static final PathPatternParser PARSER = PathPatternParser.defaultInstance;

	private static final Pattern CAPTURE = Pattern.compile("\\{\\*?[^{}]*\\}");

	/**
	 * The values given to a pattern's variables and wildcards to make concrete paths of it: a
	 * number for variables constrained to digits, a letter for the others.
	 */
	private static final List<String> SAMPLE_SEGMENTS = List.of("1", "x");

	private ManifestRouteCheck() {
	}

	/**
	 * Check a manifest against the application's handlers.
	 * @param manifest the manifest
	 * @param handlers the application's request mappings
	 * @return what does not match
	 */
	public static Result check(DegradationManifest manifest, Collection<HandlerRoute> handlers) {
		List<UnmatchedRoute> unmatched = new ArrayList<>();
		for (Tier tier : manifest.tiers()) {
			for (int i = 0; i < tier.routes().size(); i++) {
				Route route = tier.routes().get(i);
				if (handlers.stream().noneMatch((handler) -> overlap(route, handler))) {
					unmatched.add(new UnmatchedRoute(route, yamlPath(tier, i), suggestion(route, handlers)));
				}
			}
		}
		List<HandlerRoute> core = handlers.stream()
			.filter((handler) -> manifest.routes().stream().noneMatch((route) -> overlap(route, handler)))
			.toList();
		return new Result(unmatched, core, shadowed(manifest, handlers));
	}

	/**
	 * Handlers that a route catches although the application sends their requests elsewhere: the route
	 * names one handler's pattern ({@code /api/catalog/{id}/reviews}), and another, more specific
	 * handler ({@code /api/catalog/featured/reviews}) that no route names serves some of the paths
	 * it matches. While the route's tier is shed, the filter would answer those requests with the
	 * fallback of a handler they never reach. A route that names no handler's pattern (such as
	 * {@code /api/catalog/**}) means a whole part of the URL space and sheds every handler in it.
	 */
	private static List<ShadowedHandler> shadowed(DegradationManifest manifest, Collection<HandlerRoute> handlers) {
		List<ShadowedHandler> shadowed = new ArrayList<>();
		for (Tier tier : manifest.tiers()) {
			for (int i = 0; i < tier.routes().size(); i++) {
				Route route = tier.routes().get(i);
				if (handlers.stream().noneMatch((handler) -> namedBy(route, handler))) {
					continue;
				}
				PathPattern routePattern = PARSER.parse(route.path());
				for (HandlerRoute handler : handlers) {
					if (!accepts(handler, route.method()) || namedBy(route, handler)
							|| manifest.routes().stream().anyMatch((other) -> namedBy(other, handler))) {
						continue;
					}
					PathPattern handlerPattern = PARSER.parse(handler.pattern());
					boolean caught = false;
					for (String sample : SAMPLE_SEGMENTS) {
						caught = caught || matches(routePattern, samplePath(handler.pattern(), sample));
					}
					if (caught && PathPattern.SPECIFICITY_COMPARATOR.compare(handlerPattern, routePattern) < 0) {
						shadowed.add(new ShadowedHandler(route, yamlPath(tier, i), handler));
					}
				}
			}
		}
		return shadowed;
	}

	/**
	 * Return whether a handler of the application serves a route.
	 * @param route the route
	 * @param handlers the application's request mappings
	 * @return whether one of them overlaps it
	 */
	public static boolean serves(Route route, Collection<HandlerRoute> handlers) {
		return handlers.stream().anyMatch((handler) -> overlap(route, handler));
	}

	/**
	 * Return the YAML path of a route, such as {@code tiers.enhanced.routes[0]}.
	 * @param tier the route's tier
	 * @param index the index of the route in its tier
	 * @return the path
	 */
	public static String yamlPath(Tier tier, int index) {
		return "tiers." + tier.name() + ".routes[" + index + "]";
	}

	/**
	 * Return concrete paths that a pattern matches, one for each sample value given to its
	 * variables and wildcards, such as {@code /api/products/1} and {@code /api/products/x} for
	 * {@code /api/products/{id}}.
	 * @param pattern a path pattern
	 * @return the paths, the most likely to be accepted first
	 */
	public static List<String> samplePaths(String pattern) {
		return SAMPLE_SEGMENTS.stream().map((sample) -> samplePath(pattern, sample)).distinct().toList();
	}

	private static boolean namedBy(Route route, HandlerRoute handler) {
		return accepts(handler, route.method()) && normalized(route.path()).equals(normalized(handler.pattern()));
	}

	static boolean overlap(Route route, HandlerRoute handler) {
		if (!accepts(handler, route.method())) {
			return false;
		}
		PathPattern routePattern = PARSER.parse(route.path());
		PathPattern handlerPattern = PARSER.parse(handler.pattern());
		if (normalized(route.path()).equals(normalized(handler.pattern()))) {
			return true;
		}
		for (String sample : SAMPLE_SEGMENTS) {
			if (matches(handlerPattern, samplePath(route.path(), sample))
					|| matches(routePattern, samplePath(handler.pattern(), sample))) {
				return true;
			}
		}
		return false;
	}

	private static boolean accepts(HandlerRoute handler, String method) {
		return handler.methods().isEmpty() || handler.methods().contains(method)
				|| (method.equals("HEAD") && handler.methods().contains("GET"));
	}

	private static boolean matches(PathPattern pattern, String path) {
		return pattern.matches(PathContainer.parsePath(path));
	}

	private static String normalized(String pattern) {
		return CAPTURE.matcher(pattern).replaceAll("{}");
	}

	/**
	 * A concrete path that the pattern matches when its variables and wildcards accept
	 * {@code sample}.
	 */
	private static String samplePath(String pattern, String sample) {
		String path = CAPTURE.matcher(pattern).replaceAll(sample);
		return path.replace("**", sample).replace("*", sample).replace("?", sample.substring(0, 1));
	}

	private static @Nullable String suggestion(Route route, Collection<HandlerRoute> handlers) {
		List<String> candidates = handlers.stream()
			.filter((handler) -> accepts(handler, route.method()))
			.map(HandlerRoute::pattern)
			.toList();
		return Suggestions.closest(route.path(), candidates);
	}

	/**
	 * The outcome of a check.
	 *
	 * @param unmatched manifest routes that no handler serves
	 * @param coreHandlers handlers that no manifest route covers: never shed
	 * @param shadowed handlers whose requests a route would answer with another handler's fallback
	 */
	public record Result(List<UnmatchedRoute> unmatched, List<HandlerRoute> coreHandlers,
			List<ShadowedHandler> shadowed) {

	}

	/**
	 * A handler whose requests a route would catch, although it names another handler.
	 *
	 * @param route the route
	 * @param yamlPath its YAML path
	 * @param handler the more specific handler it catches
	 */
	public record ShadowedHandler(Route route, String yamlPath, HandlerRoute handler) {

		/**
		 * Return this finding as a problem of the manifest, located at the route.
		 * @param source the description of the manifest file
		 * @return the problem
		 */
		public ManifestProblem problem(String source) {
			return new ManifestProblem(source, this.route.position(), this.yamlPath,
					this.route + " also matches " + this.handler.pattern() + ", which the application sends to "
							+ this.handler.handler() + ": while the tier is shed, those requests would get this "
							+ "route's fallback; add a route for " + this.handler.pattern()
							+ " or make this one narrower");
		}

	}

	/**
	 * A manifest route that no handler serves.
	 *
	 * @param route the route
	 * @param yamlPath its YAML path, such as {@code tiers.enhanced.routes[0]}
	 * @param suggestion the handler pattern it most resembles, if one is close
	 */
	public record UnmatchedRoute(Route route, String yamlPath, @Nullable String suggestion) {

		/**
		 * Return this finding as a problem of the manifest, located at the route.
		 * @param source the description of the manifest file
		 * @return the problem
		 */
		public ManifestProblem problem(String source) {
			return new ManifestProblem(source, this.route.position(), this.yamlPath,
					this.route + " matches no handler of the application, so it would never be shed"
							+ ((this.suggestion != null) ? "; did you mean " + this.suggestion + "?"
									: "; fix the path or method, or remove the route"));
		}

	}

}
