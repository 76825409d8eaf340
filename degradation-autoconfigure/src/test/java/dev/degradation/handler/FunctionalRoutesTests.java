package dev.degradation.handler;

import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import dev.degradation.web.HandlerRoute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * How the routes of a functional endpoint are read for the manifest check.
 */
class FunctionalRoutesTests {

	@Test
	void aRouteIsReadWithItsMethodAndPathAndTheNestedPathsInFront() {
		RouterFunction<ServerResponse> function = RouterFunctions.route()
			.GET("/api/fn/extras", (request) -> ServerResponse.ok().build())
			.path("/api/fn", (builder) -> builder.POST("/items/{id}", (request) -> ServerResponse.ok().build()))
			.build();
		assertThat(MvcFunctionalRoutes.of(function)).extracting(HandlerRoute::methods, HandlerRoute::pattern)
			.containsExactly(tuple(Set.of("GET"), "/api/fn/extras"), tuple(Set.of("POST"), "/api/fn/items/{id}"));
	}

	@Test
	void eachPathOfAnOrIsServedAndWhatIsNegatedIsLeftOut() {
		RouterFunction<ServerResponse> function = RouterFunctions.route(
				RequestPredicates.path("/a").or(RequestPredicates.path("/b"))
					.and(RequestPredicates.method(org.springframework.http.HttpMethod.GET))
					.and(RequestPredicates.path("/c").negate()),
				(request) -> ServerResponse.ok().build());
		assertThat(MvcFunctionalRoutes.of(function)).extracting(HandlerRoute::methods, HandlerRoute::pattern)
			.containsExactly(tuple(Set.of("GET"), "/a"), tuple(Set.of("GET"), "/b"));
	}

	@Test
	void aRouteThatNamesNoPathOrMethodServesEveryPathAndMethod() {
		RouterFunction<ServerResponse> function = RouterFunctions.route(RequestPredicates.all(),
				(request) -> ServerResponse.ok().build());
		assertThat(MvcFunctionalRoutes.of(function)).extracting(HandlerRoute::methods, HandlerRoute::pattern)
			.containsExactly(tuple(Set.of(), "/**"));
	}

}
