package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dependency that answers every call with a 200, but slowly (above its
 * {@code breaker.slow_call_duration_ms}, below its call time limit), on a real embedded server
 * against a real dependency on loopback: its breaker opens on the slow-call rate alone, with no
 * failure among its calls; the dependency is then {@code FAILED} in the engine and the route
 * that requires it is answered with its fallback; once the dependency is fast again the breaker
 * closes through half-open and the route is live again.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:client/slow-manifest.yaml", "degradation.probes.enabled=false" })
class SlowCallBreakerIntegrationTests {

	private static final LoopbackStub stub = LoopbackStub.start();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	DependencyGuards guards;

	@DynamicPropertySource
	static void stubUrl(DynamicPropertyRegistry registry) {
		registry.add("stub.url", stub::url);
	}

	@AfterAll
	static void stopStub() {
		stub.close();
	}

	@Test
	void slowSuccessfulAnswersAloneOpenTheBreakerShedTheRouteAndTheBreakerClosesOnceTheyAreFastAgain()
			throws Exception {
		CircuitBreaker breaker = this.guards.guard("slow").circuitBreaker();
		List<CircuitBreaker.StateTransition> transitions = new CopyOnWriteArrayList<>();
		breaker.getEventPublisher().onStateTransition((event) -> transitions.add(event.getStateTransition()));
		stub.answer(200, null);
		// A first call takes longer than the dependency (the client's classes, its connection):
		// made outside the base URL, it warms the client without counting in the breaker.
		assertLive(get("/api/warm-up"));
		assertThat(breaker.getMetrics().getNumberOfBufferedCalls()).isZero();
		// Above the 100 ms from which a call is slow, well below the 1000 ms time limit.
		stub.delay = Duration.ofMillis(250);
		// Below minimum_calls (3) the breaker only counts: the slow answers are served live.
		for (int i = 0; i < 2; i++) {
			assertLive(get("/api/slow"));
		}
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(breaker.getMetrics().getNumberOfSlowSuccessfulCalls()).isEqualTo(2);
		assertThat(breaker.getMetrics().getNumberOfSlowFailedCalls()).isZero();
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
		// The third slow call reaches minimum_calls with all of them slow: 100% >= 50% opens it,
		// after its own answer was served.
		assertLive(get("/api/slow"));
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		// The window it opened on: three slow successes and not one failure.
		assertThat(breaker.getMetrics().getNumberOfSlowSuccessfulCalls()).isEqualTo(3);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
		assertThat(breaker.getMetrics().getFailureRate()).isZero();
		assertThat(breaker.getMetrics().getSlowCallRate()).isEqualTo(100f);
		assertThat(this.engine.dependency("slow").state()).isEqualTo(DependencyState.FAILED);
		// Within open_ms (2 s, ample on a loaded machine) the route is shed by the filter: its fallback, and the
		// dependency is not called.
		int reached = stub.requests.size();
		HttpResponse<String> shed = get("/api/slow");
		assertThat(shed.statusCode()).isEqualTo(200);
		assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(shed.body()).contains("degraded");
		assertThat(stub.requests).hasSize(reached);
		stub.delay = Duration.ZERO;
		// open_ms passes: the breaker lets trials through by itself, the route comes back, and
		// the fast trials close it.
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertLive(get("/api/slow")));
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertLive(get("/api/slow"));
			assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		});
		assertThat(transitions).containsSubsequence(CircuitBreaker.StateTransition.CLOSED_TO_OPEN,
				CircuitBreaker.StateTransition.OPEN_TO_HALF_OPEN, CircuitBreaker.StateTransition.HALF_OPEN_TO_CLOSED);
		assertThat(this.engine.dependency("slow").state()).isEqualTo(DependencyState.HEALTHY);
	}

	private static void assertLive(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(response.body()).contains("live");
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@UnsecuredTestConfiguration
	static class SlowClientApplication {

		@Bean
		SlowController slowController(RestClient.Builder builder, Environment env) {
			return new SlowController(builder.baseUrl(env.getProperty("stub.url")).build());
		}

	}

	@RestController
	static class SlowController {

		private final RestClient client;

		SlowController(RestClient client) {
			this.client = client;
		}

		@GetMapping("/api/warm-up")
		String warmUp() {
			return this.client.get().uri("/warm-up").retrieve().body(String.class);
		}

		@GetMapping("/api/slow")
		String slow() {
			return this.client.get().uri("/slow").retrieve().body(String.class);
		}

	}

}
