package dev.degradation.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;


import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.timelimiter.TimeLimiter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.client.DependencyGuards;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.awaitility.Awaitility.await;

/**
 * The starter at a real Spring Cloud Gateway on a random port, in front of real backends on
 * loopback that the tests make fail, hang and recover. The proxied routes are the gateway's own
 * route definitions (properties), beside a handler of the gateway's own
 * ({@link TestGatewayApplication}); the manifest declares them by path with tiers, and each backend
 * as a dependency at its {@code base_url}. Probes are one a minute and three are needed, so any
 * shedding within these tests comes from the gateway's own calls.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:gateway-manifest.yaml",
				"spring.cloud.gateway.server.webflux.routes[0].id=catalog",
				"spring.cloud.gateway.server.webflux.routes[0].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/catalog/**",
				"spring.cloud.gateway.server.webflux.routes[1].id=reviews",
				"spring.cloud.gateway.server.webflux.routes[1].uri=${backend.reviews}",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/reviews/**",
				"spring.cloud.gateway.server.webflux.routes[2].id=inventory",
				"spring.cloud.gateway.server.webflux.routes[2].uri=${backend.inventory}",
				"spring.cloud.gateway.server.webflux.routes[2].predicates[0]=Path=/inventory/**",
				"spring.cloud.gateway.server.webflux.routes[3].id=plain",
				"spring.cloud.gateway.server.webflux.routes[3].uri=${backend.plain}",
				"spring.cloud.gateway.server.webflux.routes[3].predicates[0]=Path=/plain/**",
				"spring.cloud.gateway.server.webflux.routes[4].id=reviews-export",
				"spring.cloud.gateway.server.webflux.routes[4].uri=${backend.reviews}",
				"spring.cloud.gateway.server.webflux.routes[4].predicates[0]=Path=/reviews-export/**",
				"spring.cloud.gateway.server.webflux.routes[5].id=feed",
				"spring.cloud.gateway.server.webflux.routes[5].uri=${backend.feed}",
				"spring.cloud.gateway.server.webflux.routes[5].predicates[0]=Path=/feed/**",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class GatewayEdgeIntegrationTests {

	private static final LoopbackBackend catalog = LoopbackBackend.start("catalog");

	private static final LoopbackBackend reviews = LoopbackBackend.start("reviews");

	private static final LoopbackBackend inventory = LoopbackBackend.start("inventory");

	private static final LoopbackBackend feed = LoopbackBackend.start("feed");

	/** A backend the manifest does not declare: its calls pass unguarded. */
	private static final LoopbackBackend plain = LoopbackBackend.start("plain");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	DependencyGuards guards;

	@DynamicPropertySource
	static void backends(DynamicPropertyRegistry registry) {
		registry.add("backend.catalog", catalog::url);
		registry.add("backend.reviews", reviews::url);
		registry.add("backend.inventory", inventory::url);
		registry.add("backend.plain", plain::url);
		registry.add("backend.feed", feed::url);
	}

	/**
	 * The gateway's first proxied call (its HTTP client's classes, pools and first connection)
	 * can take seconds on a loaded machine: made to the backend no dependency is, it counts in no
	 * breaker and eats into no time limit of the tests.
	 */
	@BeforeEach
	void warmUp() {
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertLive(get("/plain/warm-up"), "plain"));
	}

	@AfterEach
	void simulationOff() throws Exception {
		post("/actuator/degradation", "{\"enabled\": false}");
	}

	@AfterAll
	static void stopBackends() {
		catalog.close();
		reviews.close();
		inventory.close();
		plain.close();
		feed.close();
	}

	@Test
	void simulationShedsATierAtTheEdgeWithItsFallbackAndTheBackendIsNotCalled() throws Exception {
		assertLive(get("/catalog/items"), "catalog");
		HttpResponse<String> simulated = post("/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		assertThat(simulated.statusCode()).isEqualTo(200);
		int reached = catalog.hits();
		HttpResponse<String> shed = get("/catalog/items");
		assertThat(shed.statusCode()).isEqualTo(200);
		assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(shed.headers().firstValue("X-Degradation-Tier")).hasValue("enhanced");
		assertThat(shed.headers().firstValue("X-Degradation-Level")).hasValue("2");
		assertThat(shed.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
		assertThat(get("/reviews/1").headers().firstValue("X-Degradation-Tier")).hasValue("best-effort");
		assertThat(catalog.hits()).isEqualTo(reached);
		post("/actuator/degradation", "{\"enabled\": false}");
		assertLive(get("/catalog/items"), "catalog");
		assertThat(catalog.hits()).isEqualTo(reached + 1);
	}

	@Test
	void aBackendFailingUnderGatewayTrafficOpensItsBreakerAndItsRoutesAreShedThenServedAgainOnceItRecovers()
			throws Exception {
		CircuitBreaker breaker = this.guards.guard("reviews").circuitBreaker();
		assertLive(get("/reviews/1"), "reviews");
		// No verdict from the probes within the test (one a minute, three needed).
		DependencyState unjudged = this.engine.dependency("reviews").state();
		assertThat(unjudged).isNotEqualTo(DependencyState.FAILED);
		reviews.set(LoopbackBackend.Mode.FAILING);
		int before = reviews.hits();
		long firstFailure = System.nanoTime();
		// The breaker judges four calls, the live one above among them: the next two failed
		// answers pass through as they are.
		for (int i = 0; i < 2; i++) {
			HttpResponse<String> failed = get("/reviews/1");
			assertThat(failed.statusCode()).isEqualTo(500);
			assertThat(failed.headers().firstValue("X-Degraded")).isEmpty();
		}
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		// The third fails too (3 of 4 judged, 75 % >= 50 %): the breaker opens on it, before its
		// answer reaches the client.
		assertThat(get("/reviews/1").statusCode()).isEqualTo(500);
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(this.engine.dependency("reviews").state()).isEqualTo(DependencyState.FAILED);
		HttpResponse<String> shed = get("/reviews/1");
		long toShed = Duration.ofNanos(System.nanoTime() - firstFailure).toMillis();
		assertThat(shed.statusCode()).isEqualTo(200);
		assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(shed.headers().firstValue("X-Degradation-Tier")).hasValue("best-effort");
		assertThat(shed.body()).isEqualTo("{\"reviews\":[],\"source\":\"degraded\"}");
		assertThat(reviews.hits()).isEqualTo(before + 3);
		// Four requests from the first failure to the first shed answer; a probe window would need
		// three probes a minute apart.
		assertThat(toShed).as("ms from the first failed answer to the first shed answer").isLessThan(10_000);
		// A proxied route the manifest does not declare is not shed, but its call to the backend
		// is kept back by the open breaker: 503, and the backend is not called.
		HttpResponse<String> refused = get("/reviews-export/1");
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(reviews.hits()).isEqualTo(before + 3);
		// The other routes are not touched: only the routes that require the backend are shed.
		assertLive(get("/catalog/items"), "catalog");

		reviews.set(LoopbackBackend.Mode.HEALTHY);
		long recovering = System.nanoTime();
		// open_ms (3 s) passes: the breaker lets its two trials through by itself, they succeed,
		// and the route is live again.
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertLive(get("/reviews/1"), "reviews"));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertLive(get("/reviews/1"), "reviews");
			assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		});
		// Healthy again to a closed breaker within the two waits' bounds, open_ms and its trials.
		assertThat(Duration.ofNanos(System.nanoTime() - recovering)).isLessThan(Duration.ofSeconds(30));
		// Trials that closed the breaker are evidence of health.
		assertThat(this.engine.dependency("reviews").state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void aHangingBackendsCallEndsAtItsTimeLimitAsAFailureAndItsRouteAnswersItsFallback() throws Exception {
		CircuitBreaker breaker = this.guards.guard("inventory").circuitBreaker();
		// The gateway's calls reach the backend's time limiter as a client's do.
		AtomicInteger successes = new AtomicInteger();
		AtomicInteger timeouts = new AtomicInteger();
		TimeLimiter timeLimiter = this.guards.guard("inventory").timeLimiter();
		timeLimiter.getEventPublisher().onSuccess((event) -> successes.incrementAndGet());
		timeLimiter.getEventPublisher().onTimeout((event) -> timeouts.incrementAndGet());
		assertLive(get("/inventory/42"), "inventory");
		assertThat(successes).hasValue(1);
		inventory.set(LoopbackBackend.Mode.HANGING);
		try {
			long started = System.nanoTime();
			HttpResponse<String> timedOut = get("/inventory/42");
			long took = Duration.ofNanos(System.nanoTime() - started).toMillis();
			// The gateway's own response timeout, set from call_timeout_ms (1000 ms), ended the call;
			// the route requires the backend, so its fallback answers. The upper bound leaves room
			// for a loaded machine, and is far from the backend's hang, which lasts until the test ends it.
			assertThat(took).as("ms to answer a hanging call (call_timeout_ms 1000)")
				.isGreaterThanOrEqualTo(1000)
				.isLessThan(5_000);
			assertThat(timedOut.statusCode()).isEqualTo(200);
			assertThat(timedOut.headers().firstValue("X-Degraded")).hasValue("true");
			assertThat(timedOut.body()).isEqualTo("{\"stock\":\"unknown\",\"source\":\"degraded\"}");
			assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
			assertThat(timeouts).hasValue(1);
			// The second time-out opens the breaker (2 of 2): the route is shed without a call.
			get("/inventory/42");
			assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
			int reached = inventory.hits();
			long shedStarted = System.nanoTime();
			HttpResponse<String> shed = get("/inventory/42");
			// Shed at the edge: not a time-out's wait.
			assertThat(Duration.ofNanos(System.nanoTime() - shedStarted)).isLessThan(Duration.ofMillis(1000));
			assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
			assertThat(inventory.hits()).isEqualTo(reached);
		}
		finally {
			inventory.set(LoopbackBackend.Mode.HEALTHY);
		}
	}

	@Test
	void theCallersDeadlineBoundsTheGatewaysCallAndAPassedOneCallsNoBackend() throws Exception {
		CircuitBreaker breaker = this.guards.guard("catalog").circuitBreaker();
		breaker.reset();
		catalog.set(LoopbackBackend.Mode.HANGING);
		try {
			long started = System.nanoTime();
			HttpResponse<String> bounded = get("/catalog/7", "x-envoy-expected-rq-timeout-ms", "400");
			long took = Duration.ofNanos(System.nanoTime() - started).toMillis();
			// The caller waits 400 ms: the call ends then, not at the backend's 2 s limit.
			assertThat(took).as("ms to answer a hanging call with a 400 ms deadline (call_timeout_ms 2000)")
				.isGreaterThanOrEqualTo(350)
				.isLessThan(1_900);
			assertThat(bounded.headers().firstValue("X-Degraded")).hasValue("true");
			// The caller's short deadline ended the call, not the backend's time limit: no
			// evidence against the backend.
			assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
			assertThat(breaker.getMetrics().getNumberOfBufferedCalls()).isZero();
			int reached = catalog.hits();
			HttpResponse<String> passed = get("/catalog/7", "x-envoy-expected-rq-timeout-ms", "0");
			assertThat(passed.headers().firstValue("X-Degraded")).hasValue("true");
			assertThat(catalog.hits()).as("no call for a caller who has given up").isEqualTo(reached);
		}
		finally {
			catalog.set(LoopbackBackend.Mode.HEALTHY);
			breaker.reset();
		}
	}

	@Test
	void theDeadlinePassedOnToTheBackendIsTheTimeLeftNotTheCallersOriginalValue() throws Exception {
		assertLive(get("/catalog/8", "x-envoy-expected-rq-timeout-ms", "5000"), "catalog");
		// Time passed at the gateway before the call (at least some microseconds): what is left
		// is less than the 5000 ms the caller sent, in whole milliseconds.
		assertThat(catalog.deadline()).isNotNull();
		assertThat(Long.parseLong(catalog.deadline())).isBetween(1L, 4_999L);
		// Passed on to a backend that is no dependency too: the caller waits no longer for it.
		assertLive(get("/plain/1", "x-envoy-expected-rq-timeout-ms", "5000"), "plain");
		assertThat(Long.parseLong(plain.deadline())).isBetween(1L, 4_999L);
	}

	@Test
	void aBodyThatStallsAfterItsHeadersIsCutOffAtTheCallsTimeLimitAndCountsAsAFailure() throws Exception {
		CircuitBreaker breaker = this.guards.guard("feed").circuitBreaker();
		breaker.reset();
		assertLive(get("/feed/1"), "feed");
		feed.set(LoopbackBackend.Mode.STALLING);
		try {
			long started = System.nanoTime();
			// Half the body came, then the backend fell silent: the caller's answer ends, short of
			// its announced length, instead of hanging as long as the backend.
			assertThatIOException().isThrownBy(() -> getWithin(Duration.ofSeconds(10), "/feed/2"));
			long took = Duration.ofNanos(System.nanoTime() - started).toMillis();
			assertThat(took).as("ms to cut off a body stalled after its headers (call_timeout_ms 1000)")
				.isGreaterThanOrEqualTo(1000)
				.isLessThan(5_000);
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1));
		}
		finally {
			feed.set(LoopbackBackend.Mode.HEALTHY);
		}
		// The backend's connections are not spoiled for the next call.
		assertLive(get("/feed/3"), "feed");
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		breaker.reset();
	}

	@Test
	void aBodyThatStallsIsCutOffAtTheCallersShorterDeadlineWithoutCountingAgainstTheBackend() throws Exception {
		CircuitBreaker breaker = this.guards.guard("feed").circuitBreaker();
		breaker.reset();
		assertLive(get("/feed/1"), "feed");
		feed.set(LoopbackBackend.Mode.STALLING);
		try {
			long started = System.nanoTime();
			assertThatIOException().isThrownBy(
					() -> getWithin(Duration.ofSeconds(10), "/feed/2", "x-envoy-expected-rq-timeout-ms", "400"));
			long took = Duration.ofNanos(System.nanoTime() - started).toMillis();
			assertThat(took).as("ms to cut off a body stalled after its headers, with a 400 ms deadline")
				.isLessThan(1_000);
			// The headers in time were a success; the stall within the caller's deadline is none
			// of the backend's failures.
			assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
		}
		finally {
			feed.set(LoopbackBackend.Mode.HEALTHY);
			breaker.reset();
		}
	}

	private static void assertLive(HttpResponse<String> response, String backend) {
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(response.body()).contains("\"backend\":\"" + backend + "\"").contains("live");
	}

	private HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(30));
		if (headers.length > 0) {
			builder.headers(headers);
		}
		HttpRequest request = builder.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Send a request and read its whole answer, or fail once the answer has taken longer than a
	 * bound: the HTTP client's own timeout ends at the answer's headers.
	 */
	private HttpResponse<String> getWithin(Duration bound, String path, String... headers)
			throws IOException, InterruptedException {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path));
		if (headers.length > 0) {
			builder.headers(headers);
		}
		try {
			return this.http.sendAsync(builder.build(), HttpResponse.BodyHandlers.ofString())
				.get(bound.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
		}
		catch (java.util.concurrent.ExecutionException ex) {
			if (ex.getCause() instanceof IOException io) {
				throw io;
			}
			throw new IllegalStateException(ex.getCause());
		}
		catch (java.util.concurrent.TimeoutException ex) {
			throw new AssertionError("No end of the answer to " + path + " within " + bound);
		}
	}

	private HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
