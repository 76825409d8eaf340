package dev.degradation.shapes.jdbc;

import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring MVC application whose handlers read one HikariCP pool: the orders are core, the order
 * history is an optional read the manifest sheds while callers queue for the pool.
 */
@SpringBootApplication
public class JdbcShapeApplication {

	public static void main(String[] args) {
		SpringApplication.run(JdbcShapeApplication.class, args);
	}

	@RestController
	static class OrdersController {

		private final JdbcTemplate jdbc;

		OrdersController(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@GetMapping("/api/orders")
		Map<String, Object> orders() {
			return Map.of("orders", this.jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class));
		}

		@GetMapping("/api/orders/{id}/history")
		Map<String, Object> history(@PathVariable long id) {
			List<String> items = this.jdbc.queryForList("SELECT item FROM orders WHERE id = ?", String.class, id);
			return Map.of("history", items);
		}

		@GetMapping("/api/recommendations")
		Map<String, Object> recommendations() {
			return Map.of("recommendations", List.of("lamp"));
		}

	}

}
