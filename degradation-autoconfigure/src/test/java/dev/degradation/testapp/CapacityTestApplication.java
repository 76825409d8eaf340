package dev.degradation.testapp;

import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An application built for measuring overload, as seed 000's: every request holds a one-permit
 * "database" for 20 ms, so the service answers about 50 requests a second, whatever it is
 * offered. {@code /api/checkout} is core (not in the manifest); {@code /api/recommendations}
 * is degradable.
 */
@SpringBootConfiguration
@EnableAutoConfiguration(excludeName = { "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
@Import(CapacityTestApplication.Shop.class)
public class CapacityTestApplication {

	/** How long each request holds the one connection of the "database". */
	public static final long WORK_MILLIS = 20;

	/**
	 * The capacity-limited handlers.
	 */
	@RestController
	static class Shop {

		private final Semaphore database = new Semaphore(1, true);

		@GetMapping("/api/checkout")
		Map<String, Object> checkout() throws InterruptedException {
			return Map.of("handler", "checkout", "work", work());
		}

		@GetMapping("/api/thread")
		String thread() {
			return Thread.currentThread().toString();
		}

		@GetMapping("/api/recommendations")
		Map<String, Object> recommendations() throws InterruptedException {
			return Map.of("handler", "recommendations", "work", work());
		}

		private long work() throws InterruptedException {
			this.database.acquire();
			try {
				TimeUnit.MILLISECONDS.sleep(WORK_MILLIS);
				return WORK_MILLIS;
			}
			finally {
				this.database.release();
			}
		}

	}

}
