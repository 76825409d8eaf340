package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.ResultRecordedAsFailureException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The client side on a real embedded server against a real dependency on loopback: the
 * application's {@code RestClient} built from Boot's builder is guarded without a line of code.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:client/degradation-manifest.yaml",
				"degradation.probes.enabled=false", "management.endpoints.web.exposure.include=circuitbreakers,degradation,health",
				"management.endpoint.health.show-details=always", "management.health.circuitbreakers.enabled=true",
				"resilience4j.circuitbreaker.configs.default.register-health-indicator=true" })
class GuardedCallIntegrationTests {

	private static final LoopbackStub stub = LoopbackStub.start();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	RestClient.Builder builder;

	@Autowired
	DegradationEngine engine;

	@Autowired
	DependencyGuards guards;

	@Autowired
	io.micrometer.core.instrument.MeterRegistry meters;

	@DynamicPropertySource
	static void stubUrl(DynamicPropertyRegistry registry) {
		registry.add("stub.url", stub::url);
	}

	@AfterAll
	static void stopStub() {
		stub.close();
	}

	@Test
	void aFailingDependencyOpensItsBreakerShedsItsRoutesAndRecoversThroughHalfOpenTrials() throws Exception {
		stub.answer(500, null);
		int errors = 0;
		for (int i = 0; i < 20 && this.engine.dependency("data").state() != DependencyState.FAILED; i++) {
			HttpResponse<String> response = get("/api/data", null);
			errors += (response.statusCode() >= 500) ? 1 : 0;
		}
		assertThat(this.engine.dependency("data").state()).isEqualTo(DependencyState.FAILED);
		assertThat(errors).isEqualTo(5);
		// Operators see why: the endpoint shows the breaker's state and since when.
		String endpoint = get("/actuator/degradation", null).body();
		assertThat(endpoint).contains("\"breaker\":\"OPEN\"", "\"breakerChangedAt\":\"");
		HttpResponse<String> shed = get("/api/data", null);
		assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(shed.body()).contains("degraded");
		stub.answer(200, null);
		// open_ms passes: the breaker lets trials through by itself, the routes come back, and
		// the trials close it.
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			HttpResponse<String> response = get("/api/data", null);
			assertThat(response.body()).contains("live");
		});
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			get("/api/data", null);
			assertThat(this.guards.guard("data").circuitBreaker().getState().name()).isEqualTo("CLOSED");
		});
		assertThat(this.engine.dependency("data").state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void aServerAskingForAnHourOnEveryAttemptIsRetriedWithinTheBudget() {
		stub.answer(503, "3600");
		RestClient client = this.builder.baseUrl(stub.url()).build();
		long started = System.nanoTime();
		ResponseEntity<String> response = client.get().uri("/retrying").retrieve().onStatus((status) -> true,
				(request, answer) -> {
				}).toEntity(String.class);
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(response.getStatusCode().value()).isEqualTo(503);
		// Capped at 300 ms each, and no wait starts that would end past the 700 ms budget.
		assertThat(took).isLessThan(Duration.ofMillis(700 + 200));
		assertThat(stub.requests).hasSizeBetween(2, 3);
	}

	@Test
	void aGarbageOrNegativeRetryAfterIsIgnoredForTheBackoff() {
		for (String retryAfter : new String[] { "soon", "-5", "Wed, 99 Foo 2026 00:00:00 GMT" }) {
			stub.answer(503, retryAfter);
			RestClient client = this.builder.baseUrl(stub.url()).build();
			long started = System.nanoTime();
			client.get().uri("/retrying").retrieve().onStatus((status) -> true, (request, answer) -> {
			}).toBodilessEntity();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as(retryAfter)
				.isLessThan(Duration.ofMillis(500));
			assertThat(stub.requests).as(retryAfter).hasSize(4);
		}
	}

	@Test
	void aHangingDependencyAnswersWithinItsCallTimeout() {
		RestClient client = this.builder.baseUrl(stub.url()).build();
		stub.answer(200, null);
		stub.hang = true;
		try {
			long started = System.nanoTime();
			assertThatExceptionOfType(DependencyUnavailableException.class)
				.isThrownBy(() -> client.get().uri("/hanging").retrieve().toBodilessEntity())
				.satisfies(
						(ex) -> assertThat(ex.reason()).isEqualTo(DependencyUnavailableException.Reason.TIMEOUT));
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(300 + 200));
		}
		finally {
			stub.hang = false;
		}
	}

	@Test
	void aTimeOutThatTheCallersShortDeadlineSetIsNoFailureOfTheDependencyButItsOwnTimeLimitsIs() throws Exception {
		RestClient client = this.builder.baseUrl(stub.url()).build();
		CircuitBreaker breaker = this.guards.guard("hanging").circuitBreaker();
		breaker.reset();
		List<Throwable> ignored = new CopyOnWriteArrayList<>();
		breaker.getEventPublisher().onIgnoredError((event) -> ignored.add(event.getThrowable()));
		stub.answer(200, null);
		stub.hang = true;
		try {
			long started = System.nanoTime();
			// The caller waits 100 ms; the dependency's own time limit is 300 ms.
			CallDeadline.runWithin(Instant.now().plusMillis(100), () -> assertThatExceptionOfType(
					DependencyUnavailableException.class)
				.isThrownBy(() -> client.get().uri("/hanging").retrieve().toBodilessEntity())
				.satisfies((ex) -> {
					assertThat(ex.reason()).isEqualTo(DependencyUnavailableException.Reason.TIMEOUT);
					assertThat(ex.getMessage()).contains("the caller's deadline");
				}));
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(300));
			assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
			assertThat(breaker.getMetrics().getNumberOfBufferedCalls()).isZero();
			// Told to the breaker as every client tells it: an error its ignore predicate knows.
			assertThat(ignored).singleElement().isInstanceOf(CallerDeadlineExceededException.class);
			// Without a deadline the call gets the dependency's own 300 ms, and its time-out is
			// the dependency's failure.
			assertThatExceptionOfType(DependencyUnavailableException.class)
				.isThrownBy(() -> client.get().uri("/hanging").retrieve().toBodilessEntity());
			assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		}
		finally {
			stub.hang = false;
			breaker.reset();
		}
	}

	@Test
	void aFailedAnswerReachesTheBreakerAsAResultItsPredicateJudgesAFailure() {
		RestClient client = this.builder.baseUrl(stub.url()).build();
		CircuitBreaker breaker = this.guards.guard("hanging").circuitBreaker();
		breaker.reset();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		breaker.getEventPublisher().onError((event) -> errors.add(event.getThrowable()));
		stub.answer(500, null);
		try {
			assertThatExceptionOfType(HttpServerErrorException.class)
				.isThrownBy(() -> client.get().uri("/hanging").retrieve().toBodilessEntity());
			// CircuitBreaker.onResult with the judged answer, as the WebClient's and the gateway's
			// breaker operators record it: no exception made up for the breaker.
			assertThat(errors).singleElement().isInstanceOf(ResultRecordedAsFailureException.class);
			assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		}
		finally {
			stub.answer(200, null);
			breaker.reset();
		}
	}

	@Test
	void theDeadlineARequestArrivedWithBoundsTheCallAndIsPassedOn() throws Exception {
		stub.answer(200, null);
		HttpResponse<String> response = get("/api/retrying", "150");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(stub.requests).singleElement().satisfies((request) -> {
			assertThat(request.path()).isEqualTo("/retrying");
			assertThat(Long.parseLong(request.deadline())).isBetween(1L, 150L);
		});
		stub.answer(200, null);
		get("/api/retrying", "999999");
		// Never trusted beyond the call's own budget.
		assertThat(Long.parseLong(stub.requests.get(0).deadline())).isLessThanOrEqualTo(400L);
	}

	@Test
	void resilience4jsCircuitBreakersEndpointListsTheGuardsBreakers() throws Exception {
		HttpResponse<String> response = get("/actuator/circuitbreakers", null);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"data\"", "\"retrying\"", "\"hanging\"");
	}

	@Test
	void resilience4jsHealthShowsTheGuardsBreakersWhenItsDefaultConfigRegistersThem() throws Exception {
		HttpResponse<String> response = get("/actuator/health", null);
		assertThat(response.body()).contains("\"circuitBreakers\"", "\"hanging\"", "\"retrying\"");
		// An open breaker is reported, and does not take the application out of service by
		// default: that would turn one failed dependency into a failed service.
		CircuitBreaker hanging = this.guards.guard("hanging").circuitBreaker();
		hanging.transitionToOpenState();
		try {
			HttpResponse<String> open = get("/actuator/health", null);
			assertThat(open.statusCode()).as(open.body()).isEqualTo(200);
			assertThat(open.body()).contains("CIRCUIT_OPEN");
		}
		finally {
			hanging.transitionToClosedState();
		}
	}

	@Test
	void resilience4jsMetricsShowTheGuardsBreakers() {
		assertThat(this.meters.find("resilience4j.circuitbreaker.state").tag("name", "data").gauges()).isNotEmpty();
		assertThat(this.meters.find("resilience4j.circuitbreaker.calls").tag("name", "retrying").meters())
			.isNotEmpty();
	}

	@Test
	void otherCodeIsGuardedWithOneCallNamingTheDependency() {
		assertThat(this.guards.call("hanging", () -> "answer")).isEqualTo("answer");
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> this.guards.call("hanging", () -> {
				throw new IllegalStateException("SDK failed");
			}))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(DependencyUnavailableException.Reason.FAILED));
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
		DataController dataController(RestClient.Builder builder, org.springframework.core.env.Environment env) {
			return new DataController(builder.baseUrl(env.getProperty("stub.url")).build());
		}

	}

	@RestController
	static class DataController {

		private final RestClient client;

		DataController(RestClient client) {
			this.client = client;
		}

		@GetMapping("/api/data")
		String data() {
			return this.client.get().uri("/data").retrieve().body(String.class);
		}

		@GetMapping("/api/retrying")
		String retrying() {
			return this.client.get().uri("/retrying").retrieve().body(String.class);
		}

	}

}
