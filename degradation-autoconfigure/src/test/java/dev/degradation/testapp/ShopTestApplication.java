package dev.degradation.testapp;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * A small shop for integration tests: core routes that are never in the manifest, and degradable
 * routes whose live answers name their handler so that a test can tell which handler answered.
 * Spring Security is on the test class path; this application leaves it out, so that nothing
 * stands between Tomcat and the degradation filter, and {@link SecuredShopTestApplication} puts it
 * in front of the API.
 */
@SpringBootConfiguration
@EnableAutoConfiguration(excludeName = { "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
@Import(ShopTestApplication.ShopController.class)
public class ShopTestApplication {

	/**
	 * A second servlet beside Spring MVC, whose paths are none of the manifest's business.
	 */
	@Bean
	ServletRegistrationBean<HttpServlet> legacyServlet() {
		HttpServlet servlet = new HttpServlet() {

			@Override
			protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
				response.setContentType("text/plain");
				response.getWriter().write("legacy " + request.getPathInfo());
			}

		};
		return new ServletRegistrationBean<>(servlet, "/legacy/*");
	}

	/**
	 * The shop's handlers.
	 */
	@RestController
	static class ShopController {

		@GetMapping("/api/products")
		List<Map<String, Object>> products() {
			return List.of(Map.of("id", 1, "name", "kettle"), Map.of("id", 2, "name", "teapot"));
		}

		@GetMapping("/api/products/{id}")
		Map<String, Object> product(@PathVariable int id) {
			return Map.of("id", id, "name", "kettle");
		}

		@PostMapping("/api/orders")
		@ResponseStatus(HttpStatus.CREATED)
		Map<String, Object> order() {
			return Map.of("order", 1);
		}

		@PostMapping("/api/analytics/track")
		Map<String, Object> track() {
			return Map.of("handler", "track", "source", "live");
		}

		@GetMapping("/api/ab/assign")
		Map<String, Object> assign() {
			return Map.of("handler", "assign", "variant", "b", "source", "live");
		}

		@GetMapping("/api/recommendations")
		Map<String, Object> recommendations() {
			return Map.of("handler", "recommendations", "items", List.of("tea"), "source", "live");
		}

		@GetMapping("/api/catalog/featured/reviews")
		Map<String, Object> featuredReviews() {
			return Map.of("handler", "featuredReviews", "source", "live");
		}

		/** One caller's own reviews when it names itself by an API key, which the answer varies by. */
		@GetMapping("/api/catalog/{id}/reviews")
		ResponseEntity<Map<String, Object>> reviews(@PathVariable String id,
				@RequestHeader(name = "X-Api-Key", required = false) @Nullable String apiKey) {
			if (apiKey == null) {
				return ResponseEntity.ok(Map.of("handler", "reviews", "id", id, "source", "live"));
			}
			return ResponseEntity.ok()
				.varyBy("X-Api-Key")
				.body(Map.of("handler", "reviews", "id", id, "source", "live", "for", apiKey));
		}

	}

}
