package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The client side on a real embedded server against a real dependency on loopback, called
 * through a {@code WebClient} built from Boot's builder, the way a Spring MVC application blocks
 * on one: guarded without a line of code, its breaker's opening sheds the route that requires
 * the dependency, and the deadline the request arrived with is passed on.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:client/degradation-manifest.yaml",
				"degradation.probes.enabled=false" })
class WebClientGuardIntegrationTests {

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

	@BeforeAll
	static void warmUpReactorNetty() {
		stub.warmUpReactorNetty();
	}

	@AfterAll
	static void stopStub() {
		stub.close();
	}

	@Test
	void aFailingDependencyCalledThroughWebClientOpensItsBreakerAndShedsItsRouteUntilItRecovers() throws Exception {
		stub.answer(500, null);
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < 20 && this.engine.dependency("data").state() != DependencyState.FAILED; i++) {
			statuses.add(get("/api/data", null).statusCode());
		}
		assertThat(this.engine.dependency("data").state()).isEqualTo(DependencyState.FAILED);
		// The dependency's 500 each time, until the breaker's fifth failure opens it.
		assertThat(statuses).containsExactly(500, 500, 500, 500, 500);
		assertThat(stub.requests).hasSize(5);
		HttpResponse<String> shed = get("/api/data", null);
		assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(shed.body()).contains("degraded");
		assertThat(stub.requests).hasSize(5);
		stub.answer(200, null);
		// open_ms passes: the breaker lets trials through by itself and they close it.
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(get("/api/data", null).body()).contains("live");
			assertThat(this.guards.guard("data").circuitBreaker().getState().name()).isEqualTo("CLOSED");
		});
		assertThat(this.engine.dependency("data").state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void aWebClientCallThatTimesOutIsAnsweredWithItsRoutesFallback() throws Exception {
		stub.answer(200, null);
		stub.hang = true;
		try {
			long started = System.nanoTime();
			HttpResponse<String> response = get("/api/data", null);
			// The handler blocked on the call, which ended with DependencyUnavailableException.
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:data");
			assertThat(response.body()).contains("degraded");
			// timeout_ms of 'data' is 1000; the margin is for a busy machine.
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1000 + 1000));
		}
		finally {
			stub.hang = false;
			// The hanging call counted against the breaker: start the next test from a closed one.
			this.guards.guard("data").circuitBreaker().reset();
		}
	}

	@Test
	void aTimeOutThatTheCallersShortDeadlineSetIsNoFailureOfTheDependencyButItsOwnTimeLimitsIs() throws Exception {
		CircuitBreaker breaker = this.guards.guard("data").circuitBreaker();
		breaker.reset();
		stub.answer(200, null);
		stub.hang = true;
		try {
			long started = System.nanoTime();
			// The caller waits 300 ms; the dependency's own time limit is 1000 ms.
			HttpResponse<String> response = get("/api/data", "300");
			assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:data");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1000));
			assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
			assertThat(breaker.getMetrics().getNumberOfBufferedCalls()).isZero();
			// Without a deadline the call gets the dependency's own 1000 ms, and its time-out is
			// the dependency's failure.
			get("/api/data", null);
			assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		}
		finally {
			stub.hang = false;
			breaker.reset();
		}
	}

	@Test
	void theDeadlineARequestArrivedWithIsPassedOnByTheWebClientCallMadeForIt() throws Exception {
		stub.answer(200, null);
		// Less than the call's own limit of 400 ms, and not so little that a busy machine misses it.
		HttpResponse<String> response = get("/api/retrying", "350");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(stub.requests).singleElement().satisfies((request) -> {
			assertThat(request.path()).isEqualTo("/retrying");
			assertThat(Long.parseLong(request.deadline())).isBetween(1L, 350L);
		});
	}

	private HttpResponse<String> get(String path, String deadline) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path));
		if (deadline != null) {
			request.header("x-envoy-expected-rq-timeout-ms", deadline);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@UnsecuredTestConfiguration
	static class ClientApplication {

		@Bean
		DataController dataController(WebClient.Builder builder, Environment environment) {
			return new DataController(builder.baseUrl(environment.getProperty("stub.url")).build());
		}

	}

	@RestController
	static class DataController {

		private final WebClient client;

		DataController(WebClient client) {
			this.client = client;
		}

		@GetMapping("/api/data")
		String data() {
			return this.client.get().uri("/data").retrieve().bodyToMono(String.class).block();
		}

		@GetMapping("/api/retrying")
		String retrying() {
			return this.client.get().uri("/retrying").retrieve().bodyToMono(String.class).block();
		}

	}

}
