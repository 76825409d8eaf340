package dev.degradation.web;

import org.springframework.web.util.pattern.PathPattern;

import dev.degradation.manifest.Route;

/**
 * A manifest route compiled for the request path.
 *
 * @param route the route as declared
 * @param index the index of the route in {@code DegradationManifest.routes()}, for counting
 * @param priority the priority of the route's tier
 * @param pattern the parsed path pattern
 * @param writer the writer of its fallback
 */
public record ShedRoute(Route route, int index, int priority, PathPattern pattern, FallbackWriter writer) {

}
