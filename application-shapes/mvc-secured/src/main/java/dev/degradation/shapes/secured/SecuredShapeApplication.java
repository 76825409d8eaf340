package dev.degradation.shapes.secured;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A Spring MVC application behind Spring Security's defaults (every request authenticated, HTTP
 * Basic) with its Actuator on a management port of its own, with an annotated route and a
 * functional one.
 */
@SpringBootApplication
public class SecuredShapeApplication {

	public static void main(String[] args) {
		SpringApplication.run(SecuredShapeApplication.class, args);
	}

	/**
	 * The functional route.
	 * @return the router function
	 */
	@Bean
	RouterFunction<ServerResponse> functionalRoutes() {
		return RouterFunctions.route()
			.GET("/api/functional", (request) -> ServerResponse.ok().body(Map.of("source", "live")))
			.build();
	}

	/**
	 * The annotated route.
	 */
	@RestController
	static class AnnotatedController {

		@GetMapping("/api/annotated")
		Map<String, String> annotated() {
			return Map.of("source", "live");
		}

	}

}
