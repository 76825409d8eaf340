package dev.degradation.test.testapp;

import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * A small shop whose manifest is {@code contract/shop.yaml} (set it with
 * {@code degradation.manifest}): core routes (products, orders) and degradable ones
 * (analytics, recommendations, reviews). No component scan, so that each test says what it adds.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ShopApplication.ShopController.class)
public class ShopApplication {

	/** The manifest of the shop. */
	public static final String MANIFEST = "degradation.manifest=classpath:contract/shop.yaml";

	/**
	 * The shop's handlers; every live answer says {@code "source": "live"}.
	 */
	@RestController
	public static class ShopController {

		@GetMapping("/api/products")
		List<Map<String, Object>> products() {
			return List.of(Map.of("id", "p-1", "name", "kettle"));
		}

		@GetMapping("/api/products/{id}")
		Map<String, Object> product(@PathVariable String id) {
			return Map.of("id", id, "name", "kettle");
		}

		@PostMapping("/api/orders")
		@ResponseStatus(HttpStatus.CREATED)
		Map<String, Object> order(@RequestBody Map<String, Object> order) {
			return Map.of("order", 1);
		}

		@PostMapping("/api/analytics/track")
		ResponseEntity<Void> track(@RequestBody Map<String, Object> event) {
			return ResponseEntity.accepted().build();
		}

		@GetMapping("/api/recommendations")
		Map<String, Object> recommendations() {
			return Map.of("items", List.of("p-1"), "source", "live");
		}

		@GetMapping("/api/products/{id}/reviews")
		Map<String, Object> reviews(@PathVariable String id) {
			return Map.of("reviews", List.of("great"), "source", "live");
		}

	}

}
