package dev.degradation.autoconfigure;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import reactor.core.publisher.Mono;

import org.springframework.core.io.Resource;
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
 * <p>The reading is written once; each stack's visitor ({@link Mvc}, {@link WebFlux}) only hands
 * it what its predicates say, and is loaded only where its stack is.
 */
final class FunctionalRoutes {

	private final List<HandlerRoute> routes = new ArrayList<>();

	private final Deque<String> prefixes = new ArrayDeque<>();

	private final Deque<Set<String>> nestedMethods = new ArrayDeque<>();

	private final Set<String> methods = new LinkedHashSet<>();

	private final List<String> paths = new ArrayList<>();

	private int negated;

	private FunctionalRoutes() {
		this.prefixes.push("");
		this.nestedMethods.push(Set.of());
	}

	/**
	 * Return the routes of a Spring MVC router function.
	 * @param function the router function
	 * @return one route for each path of each of its routes
	 */
	static List<HandlerRoute> of(org.springframework.web.servlet.function.RouterFunction<?> function) {
		Mvc visitor = new Mvc();
		function.accept(visitor);
		return visitor.reading.routes;
	}

	/**
	 * Return the routes of a WebFlux router function.
	 * @param function the router function
	 * @return one route for each path of each of its routes
	 */
	static List<HandlerRoute> of(org.springframework.web.reactive.function.server.RouterFunction<?> function) {
		WebFlux visitor = new WebFlux();
		function.accept(visitor);
		return visitor.reading.routes;
	}

	private void read(Runnable predicate) {
		this.methods.clear();
		this.paths.clear();
		this.negated = 0;
		predicate.run();
	}

	private void startNested() {
		this.prefixes.push(join(this.prefixes.peek(), this.paths.isEmpty() ? "" : this.paths.get(0)));
		this.nestedMethods.push(this.methods.isEmpty() ? this.nestedMethods.peek() : Set.copyOf(this.methods));
	}

	private void endNested() {
		this.prefixes.pop();
		this.nestedMethods.pop();
	}

	private void route(Object predicate) {
		Set<String> routeMethods = this.methods.isEmpty() ? this.nestedMethods.peek() : Set.copyOf(this.methods);
		List<String> routePaths = this.paths.isEmpty() ? List.of("") : List.copyOf(this.paths);
		for (String path : routePaths) {
			String pattern = join(this.prefixes.peek(), path);
			this.routes.add(new HandlerRoute(routeMethods, pattern.isEmpty() ? "/**" : pattern,
					"functional route " + predicate));
		}
	}

	private void method(Set<HttpMethod> methods) {
		if (this.negated == 0) {
			methods.forEach((method) -> this.methods.add(method.name().toUpperCase(Locale.ROOT)));
		}
	}

	private void path(String pattern) {
		if (this.negated == 0) {
			this.paths.add(pattern);
		}
	}

	private static String join(String prefix, String path) {
		if (prefix.endsWith("/") && path.startsWith("/")) {
			return prefix + path.substring(1);
		}
		return prefix + path;
	}

	/**
	 * Spring MVC's predicates and routes, handed to the reading.
	 */
	private static final class Mvc implements org.springframework.web.servlet.function.RouterFunctions.Visitor,
			org.springframework.web.servlet.function.RequestPredicates.Visitor {

		private final FunctionalRoutes reading = new FunctionalRoutes();

		@Override
		public void startNested(org.springframework.web.servlet.function.RequestPredicate predicate) {
			this.reading.read(() -> predicate.accept(this));
			this.reading.startNested();
		}

		@Override
		public void endNested(org.springframework.web.servlet.function.RequestPredicate predicate) {
			this.reading.endNested();
		}

		@Override
		public void route(org.springframework.web.servlet.function.RequestPredicate predicate,
				org.springframework.web.servlet.function.HandlerFunction<?> handlerFunction) {
			this.reading.read(() -> predicate.accept(this));
			this.reading.route(predicate);
		}

		@Override
		public void resources(
				Function<org.springframework.web.servlet.function.ServerRequest, Optional<Resource>> lookupFunction) {
		}

		@Override
		public void attributes(Map<String, Object> attributes) {
		}

		@Override
		public void unknown(org.springframework.web.servlet.function.RouterFunction<?> routerFunction) {
		}

		@Override
		public void method(Set<HttpMethod> methods) {
			this.reading.method(methods);
		}

		@Override
		public void path(String pattern) {
			this.reading.path(pattern);
		}

		@Override
		public void pathExtension(String extension) {
		}

		@Override
		public void header(String name, String value) {
		}

		@Override
		public void param(String name, String value) {
		}

		@Override
		public void version(String version) {
		}

		@Override
		public void startAnd() {
		}

		@Override
		public void and() {
		}

		@Override
		public void endAnd() {
		}

		@Override
		public void startOr() {
		}

		@Override
		public void or() {
		}

		@Override
		public void endOr() {
		}

		@Override
		public void startNegate() {
			this.reading.negated++;
		}

		@Override
		public void endNegate() {
			this.reading.negated--;
		}

		@Override
		public void unknown(org.springframework.web.servlet.function.RequestPredicate predicate) {
		}

	}

	/**
	 * WebFlux's predicates and routes, handed to the reading.
	 */
	private static final class WebFlux
			implements org.springframework.web.reactive.function.server.RouterFunctions.Visitor,
			org.springframework.web.reactive.function.server.RequestPredicates.Visitor {

		private final FunctionalRoutes reading = new FunctionalRoutes();

		@Override
		public void startNested(org.springframework.web.reactive.function.server.RequestPredicate predicate) {
			this.reading.read(() -> predicate.accept(this));
			this.reading.startNested();
		}

		@Override
		public void endNested(org.springframework.web.reactive.function.server.RequestPredicate predicate) {
			this.reading.endNested();
		}

		@Override
		public void route(org.springframework.web.reactive.function.server.RequestPredicate predicate,
				org.springframework.web.reactive.function.server.HandlerFunction<?> handlerFunction) {
			this.reading.read(() -> predicate.accept(this));
			this.reading.route(predicate);
		}

		@Override
		public void resources(
				Function<org.springframework.web.reactive.function.server.ServerRequest, Mono<Resource>> lookupFunction) {
		}

		@Override
		public void attributes(Map<String, Object> attributes) {
		}

		@Override
		public void unknown(org.springframework.web.reactive.function.server.RouterFunction<?> routerFunction) {
		}

		@Override
		public void method(Set<HttpMethod> methods) {
			this.reading.method(methods);
		}

		@Override
		public void path(String pattern) {
			this.reading.path(pattern);
		}

		@Override
		public void pathExtension(String extension) {
		}

		@Override
		public void header(String name, String value) {
		}

		@Override
		public void queryParam(String name, String value) {
		}

		@Override
		public void version(String version) {
		}

		@Override
		public void startAnd() {
		}

		@Override
		public void and() {
		}

		@Override
		public void endAnd() {
		}

		@Override
		public void startOr() {
		}

		@Override
		public void or() {
		}

		@Override
		public void endOr() {
		}

		@Override
		public void startNegate() {
			this.reading.negated++;
		}

		@Override
		public void endNegate() {
			this.reading.negated--;
		}

		@Override
		public void unknown(org.springframework.web.reactive.function.server.RequestPredicate predicate) {
		}

	}

}
