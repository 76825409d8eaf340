package dev.degradation.shapes.aot;

import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * A WebFlux application processed ahead of time, as one is before it becomes a native image, with
 * an annotated route and a functional one.
 */
@SpringBootApplication
public class AotShapeApplication {

	public static void main(String[] args) {
		SpringApplication.run(AotShapeApplication.class, args);
	}

	/**
	 * The functional route.
	 * @return the router function
	 */
	@Bean
	RouterFunction<ServerResponse> functionalRoutes() {
		return RouterFunctions.route()
			.GET("/api/functional", (request) -> ServerResponse.ok().bodyValue(Map.of("source", "live")))
			.build();
	}

	/**
	 * The annotated route.
	 */
	@RestController
	static class AnnotatedController {

		@GetMapping("/api/annotated")
		Mono<Map<String, String>> annotated() {
			return Mono.just(Map.of("source", "live"));
		}

	}

}
