package dev.degradation.handler;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.springframework.http.HttpMethod;

import dev.degradation.web.HandlerRoute;

/**
 * Reads the routes of a functional endpoint ({@code RouterFunction}, of Spring MVC or of WebFlux)
 * as the manifest check reads request mappings: one for each path of each route, with the methods
 * its predicate names, and the paths of enclosing {@code nest} predicates in front. A predicate
 * that names no path serves every path; one that names no method serves every method. What a
 * predicate negates is left out, and the paths of an {@code or} are each taken as served, so that
 * a route is never taken for a typo because of a predicate this reading simplifies.
 *
 * <p>The reading is written once and names no type of either stack; each stack's visitor
 * ({@link MvcFunctionalRoutes}, {@link WebFluxFunctionalRoutes}) is a class of its own that hands it
 * what its predicates say and is referred to only by that stack's code, so that an application with
 * one stack on its class path never loads the other's types (one class implementing both visitors
 * stopped MVC-only and WebFlux-only applications with a functional route from starting).
 */
final class FunctionalRoutes {

	private final List<HandlerRoute> routes = new ArrayList<>();

	private final Deque<String> prefixes = new ArrayDeque<>();

	private final Deque<Set<String>> nestedMethods = new ArrayDeque<>();

	private final Set<String> methods = new LinkedHashSet<>();

	private final List<String> paths = new ArrayList<>();

	private int negated;

	FunctionalRoutes() {
		this.prefixes.push("");
		this.nestedMethods.push(Set.of());
	}

	/**
	 * Return the routes read so far.
	 * @return one route for each path of each route visited
	 */
	List<HandlerRoute> routes() {
		return this.routes;
	}

	void read(Runnable predicate) {
		this.methods.clear();
		this.paths.clear();
		this.negated = 0;
		predicate.run();
	}

	void startNested() {
		this.prefixes.push(join(this.prefixes.peek(), this.paths.isEmpty() ? "" : this.paths.get(0)));
		this.nestedMethods.push(this.methods.isEmpty() ? this.nestedMethods.peek() : Set.copyOf(this.methods));
	}

	void endNested() {
		this.prefixes.pop();
		this.nestedMethods.pop();
	}

	void route(Object predicate) {
		Set<String> routeMethods = this.methods.isEmpty() ? this.nestedMethods.peek() : Set.copyOf(this.methods);
		List<String> routePaths = this.paths.isEmpty() ? List.of("") : List.copyOf(this.paths);
		for (String path : routePaths) {
			String pattern = join(this.prefixes.peek(), path);
			this.routes.add(new HandlerRoute(routeMethods, pattern.isEmpty() ? "/**" : pattern,
					"functional route " + predicate));
		}
	}

	void method(Set<HttpMethod> methods) {
		if (this.negated == 0) {
			methods.forEach((method) -> this.methods.add(method.name().toUpperCase(Locale.ROOT)));
		}
	}

	void path(String pattern) {
		if (this.negated == 0) {
			this.paths.add(pattern);
		}
	}

	void startNegate() {
		this.negated++;
	}

	void endNegate() {
		this.negated--;
	}

	private static String join(String prefix, String path) {
		if (prefix.endsWith("/") && path.startsWith("/")) {
			return prefix + path.substring(1);
		}
		return prefix + path;
	}

}
