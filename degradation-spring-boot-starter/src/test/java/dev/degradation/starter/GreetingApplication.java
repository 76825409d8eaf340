package dev.degradation.starter;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * A small application of a user's, with the starter added and nothing of it configured but its
 * manifest: it greets with what its backend says.
 */
@SpringBootApplication
public class GreetingApplication {

	/**
	 * The one route, which needs the backend.
	 */
	@RestController
	static class GreetingController {

		private final RestClient backend;

		GreetingController(RestClient.Builder builder, @Value("${greeting.backend-url}") String backendUrl) {
			this.backend = builder.baseUrl(backendUrl).build();
		}

		@GetMapping("/api/greeting")
		String greeting() {
			return this.backend.get().uri("/hello").retrieve().body(String.class);
		}

	}

}
