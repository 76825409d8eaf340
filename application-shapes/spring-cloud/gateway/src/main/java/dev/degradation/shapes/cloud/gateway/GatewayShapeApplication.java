package dev.degradation.shapes.cloud.gateway;

import java.time.Duration;
import java.util.Map;

import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;

import reactor.core.publisher.Mono;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.circuitbreaker.resilience4j.ReactiveResilience4JCircuitBreakerFactory;
import org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JConfigBuilder;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A Spring Cloud Gateway in front of services found by id: its routes (properties) proxy to
 * {@code lb://catalog} and {@code lb://reviews} through a {@code CircuitBreaker} default filter
 * whose fallback is {@code /fallback}, and one handler of its own calls the catalog through a
 * {@code @LoadBalanced WebClient.Builder} the application defines itself.
 */
@SpringBootApplication
public class GatewayShapeApplication {

	@Bean
	@LoadBalanced
	WebClient.Builder loadBalancedWebClientBuilder() {
		return WebClient.builder();
	}

	/**
	 * The routes' circuit breaker waits longer than the manifest's call time limit (3 s), as it
	 * should beside the starter: its own time limit (1 s by default) would otherwise answer a
	 * slow call with its fallback before the starter judged it.
	 */
	@Bean
	Customizer<ReactiveResilience4JCircuitBreakerFactory> routeBreakerTimeLimit() {
		return (factory) -> factory.configureDefault((id) -> new Resilience4JConfigBuilder(id)
			.circuitBreakerConfig(CircuitBreakerConfig.ofDefaults())
			.timeLimiterConfig(TimeLimiterConfig.custom().timeoutDuration(Duration.ofSeconds(5)).build())
			.build());
	}

	public static void main(String[] args) {
		SpringApplication.run(GatewayShapeApplication.class, args);
	}

	/**
	 * The gateway's own handlers: a summary made of a call to the catalog, by service id, and the
	 * fallback of the routes' circuit breaker.
	 */
	@RestController
	static class GatewayHandlers {

		private final WebClient catalog;

		GatewayHandlers(@LoadBalanced WebClient.Builder builder) {
			this.catalog = builder.baseUrl("http://catalog").build();
		}

		@GetMapping("/api/catalog-summary")
		Mono<Map<String, String>> catalogSummary() {
			return this.catalog.get()
				.uri("/items")
				.retrieve()
				.bodyToMono(String.class)
				.map((items) -> Map.of("source", "live", "catalog", items));
		}

		@GetMapping("/fallback")
		Map<String, String> fallback() {
			return Map.of("source", "application-fallback");
		}

	}

}
