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

	private static final String[] SAMPLE_SEGMENTS = { "1", "x" };

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
					unmatched.add(new UnmatchedRoute(route, "tiers." + tier.name() + ".routes[" + i + "]",
							suggestion(route, handlers)));
				}
			}
		}
		List<HandlerRoute> core = handlers.stream()
			.filter((handler) -> manifest.routes().stream().noneMatch((route) -> overlap(route, handler)))
			.toList();
		return new Result(unmatched, core);
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
	 */
	public record Result(List<UnmatchedRoute> unmatched, List<HandlerRoute> coreHandlers) {

	}

	/**
	 * A manifest route that no handler serves.
	 *
	 * @param route the route
	 * @param yamlPath its YAML path, such as {@code tiers.enhanced.routes[0]}
	 * @param suggestion the handler pattern it most resembles, if one is close
	 */
	public record UnmatchedRoute(Route route, String yamlPath, @Nullable String suggestion) {

	}

}
