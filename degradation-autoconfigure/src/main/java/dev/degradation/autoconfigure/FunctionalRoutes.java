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

import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicate;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;

import dev.degradation.web.HandlerRoute;

/**
 * Reads the routes of a Spring MVC functional endpoint ({@code RouterFunction}) as the manifest
 * check reads request mappings: one for each path of each route, with the methods its predicate
 * names, and the paths of enclosing {@code nest} predicates in front. A predicate that names no
 * path serves every path; one that names no method serves every method. What a predicate negates
 * is left out, and the paths of an {@code or} are each taken as served, so that a route is never
 * taken for a typo because of a predicate this reading simplifies.
 */
final class FunctionalRoutes implements RouterFunctions.Visitor, RequestPredicates.Visitor {

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
	 * Return the routes of a router function.
	 * @param function the router function
	 * @return one route for each path of each of its routes
	 */
	static List<HandlerRoute> of(RouterFunction<?> function) {
		FunctionalRoutes visitor = new FunctionalRoutes();
		function.accept(visitor);
		return visitor.routes;
	}

	@Override
	public void startNested(RequestPredicate predicate) {
		read(predicate);
		this.prefixes.push(join(this.prefixes.peek(), this.paths.isEmpty() ? "" : this.paths.get(0)));
		this.nestedMethods.push(this.methods.isEmpty() ? this.nestedMethods.peek() : Set.copyOf(this.methods));
	}

	@Override
	public void endNested(RequestPredicate predicate) {
		this.prefixes.pop();
		this.nestedMethods.pop();
	}

	@Override
	public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
		read(predicate);
		Set<String> routeMethods = this.methods.isEmpty() ? this.nestedMethods.peek() : Set.copyOf(this.methods);
		List<String> routePaths = this.paths.isEmpty() ? List.of("") : List.copyOf(this.paths);
		for (String path : routePaths) {
			String pattern = join(this.prefixes.peek(), path);
			this.routes.add(new HandlerRoute(routeMethods, pattern.isEmpty() ? "/**" : pattern,
					"functional route " + predicate));
		}
	}

	private void read(RequestPredicate predicate) {
		this.methods.clear();
		this.paths.clear();
		this.negated = 0;
		predicate.accept(this);
	}

	private static String join(String prefix, String path) {
		if (prefix.endsWith("/") && path.startsWith("/")) {
			return prefix + path.substring(1);
		}
		return prefix + path;
	}

	@Override
	public void resources(Function<ServerRequest, Optional<Resource>> lookupFunction) {
	}

	@Override
	public void attributes(Map<String, Object> attributes) {
	}

	@Override
	public void unknown(RouterFunction<?> routerFunction) {
	}

	@Override
	public void method(Set<HttpMethod> methods) {
		if (this.negated == 0) {
			methods.forEach((method) -> this.methods.add(method.name().toUpperCase(Locale.ROOT)));
		}
	}

	@Override
	public void path(String pattern) {
		if (this.negated == 0) {
			this.paths.add(pattern);
		}
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
		this.negated++;
	}

	@Override
	public void endNegate() {
		this.negated--;
	}

	@Override
	public void unknown(RequestPredicate predicate) {
	}

}
