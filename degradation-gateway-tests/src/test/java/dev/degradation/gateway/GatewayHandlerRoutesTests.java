package dev.degradation.gateway;

import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.cloud.gateway.handler.AsyncPredicate;
import org.springframework.cloud.gateway.handler.predicate.HeaderRoutePredicateFactory;
import org.springframework.cloud.gateway.handler.predicate.MethodRoutePredicateFactory;
import org.springframework.cloud.gateway.handler.predicate.PathRoutePredicateFactory;
import org.springframework.boot.webflux.autoconfigure.WebFluxProperties;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.http.HttpMethod;
import org.springframework.web.server.ServerWebExchange;

import dev.degradation.handler.GatewayHandlerRoutes;
import dev.degradation.web.HandlerRoute;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a gateway route's predicate is read as handlers: its paths and methods where the predicate
 * joins them by {@code and}, and every path and method where the reading would otherwise be
 * narrower than the route, so that no route is taken for a typo because of it.
 */
class GatewayHandlerRoutesTests {

	@Test
	void aRouteWithPathsAndAMethodServesEachPathWithThatMethod() {
		assertThat(read(path("/api/**", "/v2/api/**").and(method(HttpMethod.GET, HttpMethod.HEAD))))
			.containsExactly("GET|HEAD /api/**", "GET|HEAD /v2/api/**");
	}

	@Test
	void aRouteWithoutAPathServesEveryPathAndOneWithoutAMethodEveryMethod() {
		assertThat(read(method(HttpMethod.POST))).containsExactly("POST /**");
		assertThat(read(path("/orders/{id}"))).containsExactly("* /orders/{id}");
		assertThat(read(header("X-Tenant", "a").and(path("/t/**")))).containsExactly("* /t/**");
	}

	@Test
	void twoMethodPredicatesJoinedByAndServeTheMethodsBothName() {
		assertThat(read(path("/a").and(method(HttpMethod.GET, HttpMethod.POST)).and(method(HttpMethod.POST))))
			.containsExactly("POST /a");
	}

	@Test
	void aRouteJoinedByOrOrNegatedServesEveryPathAndMethod() {
		assertThat(read(path("/a").or(method(HttpMethod.GET)))).containsExactly("* /**");
		assertThat(read(path("/a").and(method(HttpMethod.GET).negate()))).containsExactly("* /**");
		assertThat(read(path("/internal/**").negate())).containsExactly("* /**");
	}

	@Test
	void aRouteIsNamedByItsId() {
		Route route = route("catalog", path("/catalog/**"));
		assertThat(new GatewayHandlerRoutes(() -> Flux.just(route)).handlers()).singleElement()
			.extracting(HandlerRoute::handler)
			.isEqualTo("gateway route 'catalog'");
	}

	private static List<String> read(AsyncPredicate<ServerWebExchange> predicate) {
		Route route = route("r", predicate);
		return new GatewayHandlerRoutes(() -> Flux.just(route)).handlers().stream().map(HandlerRoute::toString).toList();
	}

	private static Route route(String id, AsyncPredicate<ServerWebExchange> predicate) {
		return Route.async().id(id).uri("http://127.0.0.1:9").asyncPredicate(predicate).build();
	}

	private static AsyncPredicate<ServerWebExchange> path(String... patterns) {
		return AsyncPredicate
			.from(new PathRoutePredicateFactory(new WebFluxProperties()).apply((config) -> config.setPatterns(List.of(patterns))));
	}

	private static AsyncPredicate<ServerWebExchange> method(HttpMethod... methods) {
		return AsyncPredicate.from(new MethodRoutePredicateFactory().apply((config) -> config.setMethods(methods)));
	}

	private static AsyncPredicate<ServerWebExchange> header(String name, String regexp) {
		return AsyncPredicate.from(new HeaderRoutePredicateFactory()
			.apply((config) -> config.setHeader(name).setRegexp(regexp)));
	}

}
