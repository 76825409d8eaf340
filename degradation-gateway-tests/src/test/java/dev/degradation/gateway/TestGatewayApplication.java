package dev.degradation.gateway;

import java.util.Map;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The gateway under test, shaped as many are (spring-guides' gs-gateway among them): proxied
 * routes from properties (set by each test) and from the Java DSL, and one handler of its own at
 * {@code /fallback}. The DSL route is read from {@code backend.reviews}.
 */
@SpringBootApplication
class TestGatewayApplication {

	@Bean
	RouteLocator dslRoutes(RouteLocatorBuilder builder, Environment environment) {
		return builder.routes()
			.route("dsl-reviews",
					(route) -> route.path("/dsl/reviews/**")
						.and()
						.method(HttpMethod.GET)
						.filters((filters) -> filters.stripPrefix(1))
						.uri(environment.getRequiredProperty("backend.reviews")))
			.build();
	}

	/**
	 * The gateway's own handler.
	 */
	@RestController
	static class FallbackController {

		@GetMapping("/fallback")
		Map<String, String> fallback() {
			return Map.of("source", "gateway");
		}

	}

}
