package dev.degradation.shapes.webclient;

import java.util.Map;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A Spring MVC application that calls its dependency with a WebClient (both stacks' jars on its
 * class path, the servlet one serving), with an annotated route and a functional one.
 */
@SpringBootApplication
public class WebClientShapeApplication {

	public static void main(String[] args) {
		SpringApplication.run(WebClientShapeApplication.class, args);
	}

	/**
	 * The functional route, which asks the dependency with Boot's WebClient before it answers.
	 * @param webClient Boot's builder
	 * @param inventory the dependency's address
	 * @return the router function
	 */
	@Bean
	RouterFunction<ServerResponse> functionalRoutes(WebClient.Builder webClient,
			@Value("${shape.inventory.url}") String inventory) {
		WebClient client = webClient.baseUrl(inventory).build();
		return RouterFunctions.route().GET("/api/functional", (request) -> {
			String health = client.get().uri("/healthz").retrieve().bodyToMono(String.class).block();
			return ServerResponse.ok().body(Map.of("source", "live", "inventory", String.valueOf(health)));
		}).build();
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
