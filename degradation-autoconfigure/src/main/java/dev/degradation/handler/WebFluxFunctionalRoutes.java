package dev.degradation.handler;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import reactor.core.publisher.Mono;

import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;

import dev.degradation.web.HandlerRoute;

/**
 * WebFlux's side of {@link FunctionalRoutes}: visits a WebFlux {@code RouterFunction} and hands
 * the reading what its predicates say. Only WebFlux's code refers to it ({@link WebFluxHandlerRoutes}).
 */
final class WebFluxFunctionalRoutes
		implements org.springframework.web.reactive.function.server.RouterFunctions.Visitor,
		org.springframework.web.reactive.function.server.RequestPredicates.Visitor {

	private final FunctionalRoutes reading = new FunctionalRoutes();

	private WebFluxFunctionalRoutes() {
	}

	/**
	 * Return the routes of a WebFlux router function.
	 * @param function the router function
	 * @return one route for each path of each of its routes
	 */
	static List<HandlerRoute> of(org.springframework.web.reactive.function.server.RouterFunction<?> function) {
		WebFluxFunctionalRoutes visitor = new WebFluxFunctionalRoutes();
		function.accept(visitor);
		return visitor.reading.routes();
	}

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
		this.reading.startNegate();
	}

	@Override
	public void endNegate() {
		this.reading.endNegate();
	}

	@Override
	public void unknown(org.springframework.web.reactive.function.server.RequestPredicate predicate) {
	}

}
