package dev.degradation.shapes.cloud.service;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * A Spring MVC service that calls another service by id: the inventory, found through Spring
 * Cloud's discovery, through a {@code @LoadBalanced RestClient.Builder} the application defines
 * itself.
 */
@SpringBootApplication
public class ServiceShapeApplication {

	@Bean
	@LoadBalanced
	RestClient.Builder loadBalancedRestClientBuilder() {
		return RestClient.builder();
	}

	public static void main(String[] args) {
		SpringApplication.run(ServiceShapeApplication.class, args);
	}

	/**
	 * The service's handlers: stock, from the inventory service, and a page that needs nothing.
	 */
	@RestController
	static class StockController {

		private final RestClient inventory;

		StockController(@LoadBalanced RestClient.Builder builder) {
			this.inventory = builder.baseUrl("http://inventory").build();
		}

		@GetMapping("/api/stock")
		Map<String, String> stock() {
			String stock = this.inventory.get().uri("/stock").retrieve().body(String.class);
			return Map.of("source", "live", "inventory", String.valueOf(stock));
		}

		@GetMapping("/api/about")
		Map<String, String> about() {
			return Map.of("source", "live");
		}

	}

}
