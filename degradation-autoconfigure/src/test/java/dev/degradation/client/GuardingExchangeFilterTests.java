package dev.degradation.client;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.util.context.Context;

import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.client.DependencyUnavailableException.Reason;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.monitor.DependencyState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code WebClient} guard with a real {@code WebClient} on Reactor Netty against a real
 * dependency on loopback, and the same {@link DependencyGuards} a {@code RestClient} uses: no
 * Spring context, nothing mocked.
 */
class GuardingExchangeFilterTests {

	private static final String DEADLINE_HEADER = "x-envoy-expected-rq-timeout-ms";

	private static final LoopbackStub stub = LoopbackStub.start();

	private final DegradationEngine engine = new DegradationEngine(
			ManifestLoader.standard().load("webclient.yaml", manifest(stub.url()).getBytes(StandardCharsets.UTF_8)),
			Clock.systemUTC());

	private final DependencyGuards guards = new DependencyGuards(this.engine, CircuitBreakerRegistry.ofDefaults(),
			TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults(), GuardExecutor.platformThreads(4));

	private final WebClient client = WebClient.builder()
		.filter(new GuardingExchangeFilter(this.guards, DEADLINE_HEADER, Clock.systemUTC()))
		.build();

	@BeforeAll
	static void warmUpReactorNetty() {
		stub.warmUpReactorNetty();
	}

	@AfterEach
	void closeGuards() {
		this.guards.close();
	}

	@AfterAll
	static void stopStub() {
		stub.close();
	}

	static String manifest(String url) {
		return """
				defaults:
				  hysteresis_seconds: 0
				dependencies:
				  data:
				    base_url: "%1$s/data"
				    call_timeout_ms: 1000
				    breaker: { window_size: 10, minimum_calls: 5, open_ms: 60000 }
				    retry: { max_attempts: 1 }
				  retrying:
				    base_url: "%1$s/retrying"
				    call_timeout_ms: 1000
				    retry: { max_attempts: 2, backoff_ms: 10, max_retry_after_ms: 1500, budget_ms: 3000 }
				    breaker: { minimum_calls: 100, window_size: 100 }
				  capped:
				    base_url: "%1$s/capped"
				    call_timeout_ms: 1000
				    retry: { max_attempts: 2, backoff_ms: 10, max_retry_after_ms: 200, budget_ms: 3000 }
				    breaker: { minimum_calls: 100, window_size: 100 }
				tiers:
				  enhanced:
				    priority: 1
				    routes:
				      - path: /api/data
				        method: GET
				        fallback: static
				        static_response: { "source": "degraded" }
				        requires: [data]
				""".formatted(url);
	}

	@Test
	void webClientAndRestClientCallsFeedOneBreakerWhoseOpeningFailsTheDependencyAndShedsItsRoute() {
		stub.answer(500, null);
		RestClient restClient = RestClient.builder()
			.requestInterceptor(new GuardingInterceptor(this.guards, DEADLINE_HEADER, Clock.systemUTC()))
			.build();
		for (int i = 0; i < 2; i++) {
			Integer status = restClient.get()
				.uri(stub.url() + "/data")
				.exchange((request, response) -> response.getStatusCode().value());
			assertThat(status).isEqualTo(500);
		}
		CircuitBreaker breaker = this.guards.guard("data").circuitBreaker();
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		for (int i = 0; i < 3; i++) {
			// A 5xx is a failure for the breaker, and still the caller's answer.
			assertThat(status(this.client.get().uri(stub.url() + "/data"))).isEqualTo(500);
		}
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(5);
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(this.engine.dependency("data").state()).isEqualTo(DependencyState.FAILED);
		assertThat(this.engine.state().shedCause(0)).isEqualTo("dependency:data");
		assertThat(stub.requests).hasSize(5);
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> status(this.client.get().uri(stub.url() + "/data")))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.BREAKER_OPEN));
		assertThat(stub.requests).hasSize(5);
	}

	@Test
	void aFailedAnswerCountsAgainstTheBreakerAndItsBodyStillReachesTheCaller() {
		stub.answer(500, null);
		String body = this.client.get()
			.uri(stub.url() + "/data")
			.exchangeToMono((response) -> response.bodyToMono(String.class))
			.block(Duration.ofSeconds(10));
		assertThat(body).contains("live");
		assertThat(this.guards.guard("data").circuitBreaker().getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
	}

	@Test
	void a503WithRetryAfterIsRetriedOnceForAGetAfterTheWaitItAskedFor() {
		stub.answerThenRecover(503, "1", 1);
		long started = System.nanoTime();
		assertThat(status(this.client.get().uri(stub.url() + "/retrying"))).isEqualTo(200);
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(stub.requests).hasSize(2);
		assertThat(took).isBetween(Duration.ofMillis(950), Duration.ofMillis(2500));
		assertThat(this.guards.guard("retrying").retry().getMetrics().getNumberOfSuccessfulCallsWithRetryAttempt())
			.isEqualTo(1);
	}

	@Test
	void aPostIsNeverRetried() {
		stub.answerThenRecover(503, "1", 1);
		assertThat(status(this.client.post().uri(stub.url() + "/retrying"))).isEqualTo(503);
		assertThat(stub.requests).singleElement().satisfies((request) -> assertThat(request.method()).isEqualTo("POST"));
	}

	@Test
	void aRetryAfterOfAYearIsWaitedOnlyUpToMaxRetryAfter() {
		stub.answerThenRecover(503, Long.toString(Duration.ofDays(365).toSeconds()), 1);
		long started = System.nanoTime();
		assertThat(status(this.client.get().uri(stub.url() + "/capped"))).isEqualTo(200);
		assertThat(stub.requests).hasSize(2);
		// max_retry_after_ms is 200.
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(190),
				Duration.ofMillis(1500));
	}

	@Test
	void theBodyOfARetriedAnswerIsReleasedSoItsConnectionServesTheNextAttempt() {
		ConnectionProvider oneConnection = ConnectionProvider.builder("one")
			.maxConnections(1)
			.pendingAcquireTimeout(Duration.ofSeconds(5))
			.build();
		try {
			WebClient client = WebClient.builder()
				.clientConnector(new ReactorClientHttpConnector(HttpClient.create(oneConnection)))
				.filter(new GuardingExchangeFilter(this.guards, DEADLINE_HEADER, Clock.systemUTC()))
				.build();
			for (int i = 0; i < 3; i++) {
				stub.answer(503, "0");
				// Two attempts each on the pool's one connection: the second could not have it
				// had the first answer's body been left unread.
				assertThat(status(client.get().uri(stub.url() + "/retrying"))).isEqualTo(503);
				assertThat(stub.requests).hasSize(2);
			}
		}
		finally {
			oneConnection.dispose();
		}
	}

	@Test
	void theDeadlineInTheReactorContextBoundsTheAttemptAndIsPassedOn() {
		stub.answer(200, null);
		Integer status = this.client.get()
			.uri(stub.url() + "/data")
			.exchangeToMono((response) -> Mono.just(response.statusCode().value()))
			.contextWrite(Context.of(CallDeadline.KEY, Instant.now().plusMillis(150)))
			.block(Duration.ofSeconds(5));
		assertThat(status).isEqualTo(200);
		assertThat(stub.requests).singleElement()
			.satisfies((request) -> assertThat(Long.parseLong(request.deadline())).isBetween(1L, 150L));
	}

	@Test
	void withoutADeadlineTheAttemptsOwnLimitIsPassedOn() {
		stub.answer(200, null);
		assertThat(status(this.client.get().uri(stub.url() + "/data"))).isEqualTo(200);
		assertThat(stub.requests).singleElement()
			.satisfies((request) -> assertThat(Long.parseLong(request.deadline())).isBetween(900L, 1000L));
	}

	@Test
	void theDeadlineOfTheThreadThatBlocksOnTheCallIsUsedWhenTheContextHasNone() throws Exception {
		stub.answer(200, null);
		CallDeadline.runWithin(Instant.now().plusMillis(150),
				() -> assertThat(status(this.client.get().uri(stub.url() + "/data"))).isEqualTo(200));
		assertThat(stub.requests).singleElement()
			.satisfies((request) -> assertThat(Long.parseLong(request.deadline())).isBetween(1L, 150L));
	}

	@Test
	void aPassedDeadlineFailsAtOnceWithoutReachingTheDependency() {
		stub.answer(200, null);
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> this.client.get()
				.uri(stub.url() + "/retrying")
				.retrieve()
				.toBodilessEntity()
				.contextWrite(Context.of(CallDeadline.KEY, Instant.now().minusMillis(1)))
				.block(Duration.ofSeconds(5)))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.TIMEOUT));
		assertThat(stub.requests).isEmpty();
		assertThat(this.guards.guard("retrying").circuitBreaker().getMetrics().getNumberOfBufferedCalls()).isZero();
	}

	@Test
	void callsElsewherePassUntouched() {
		stub.answer(500, null);
		assertThat(status(this.client.get().uri(stub.url() + "/elsewhere"))).isEqualTo(500);
		assertThat(stub.requests).singleElement().satisfies((request) -> assertThat(request.deadline()).isNull());
		assertThat(this.guards.guards())
			.allSatisfy((guard) -> assertThat(guard.circuitBreaker().getMetrics().getNumberOfBufferedCalls()).isZero());
	}

	private static Integer status(WebClient.RequestHeadersSpec<?> request) {
		return request.exchangeToMono((response) -> Mono.just(response.statusCode().value()))
			.block(Duration.ofSeconds(10));
	}

}
