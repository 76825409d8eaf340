package dev.degradation.handler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;

import dev.degradation.web.HandlerRoute;

/**
 * Spring MVC's side of {@link FunctionalRoutes}: visits a Spring MVC {@code RouterFunction} and
 * hands the reading what its predicates say. Only Spring MVC's code refers to it ({@link MvcHandlerRoutes}).
 */
final class MvcFunctionalRoutes implements org.springframework.web.servlet.function.RouterFunctions.Visitor,
		org.springframework.web.servlet.function.RequestPredicates.Visitor {

	private final FunctionalRoutes reading = new FunctionalRoutes();

	private MvcFunctionalRoutes() {
	}

	/**
	 * Return the routes of a Spring MVC router function.
	 * @param function the router function
	 * @return one route for each path of each of its routes
	 */
	static List<HandlerRoute> of(org.springframework.web.servlet.function.RouterFunction<?> function) {
		MvcFunctionalRoutes visitor = new MvcFunctionalRoutes();
		function.accept(visitor);
		return visitor.reading.routes();
	}

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
		this.reading.startNegate();
	}

	@Override
	public void endNegate() {
		this.reading.endNegate();
	}

	@Override
	public void unknown(org.springframework.web.servlet.function.RequestPredicate predicate) {
	}

}
