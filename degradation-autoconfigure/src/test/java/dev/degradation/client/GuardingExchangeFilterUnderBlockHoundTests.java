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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;

import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.client.DependencyUnavailableException.Reason;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.BlockingCalls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every path of the {@code WebClient} guard under BlockHound, which reports any blocking call
 * made on a thread that must not block (Reactor's parallel scheduler, Netty's event loops): an
 * answer, a retry after {@code Retry-After}, failures that open the breaker and tell the engine,
 * a refusal by the open breaker, a time-out, a passed deadline. Every call is started from a
 * Reactor thread, so that the guard's own work runs on one.
 *
 * <p>BlockHound instruments the JVM for good, and needs
 * {@code -XX:+AllowRedefinitionToAddDeleteMethods} from JDK 13 on: the {@code blockhound}
 * execution of the build runs this class alone in a JVM of its own with that flag.
 */
class GuardingExchangeFilterUnderBlockHoundTests {

	private static final LoopbackStub stub = LoopbackStub.start();

	private static final LoopbackDependency blackHole = LoopbackDependency.start().answer(Answer.hang());

	private final DegradationEngine engine = new DegradationEngine(
			ManifestLoader.standard().load("blockhound.yaml", """
					defaults:
					  hysteresis_seconds: 0
					dependencies:
					  data:
					    base_url: "%1$s/data"
					    call_timeout_ms: 2000
					    breaker: { window_size: 3, minimum_calls: 3, open_ms: 60000 }
					    retry: { max_attempts: 1 }
					  retrying:
					    base_url: "%1$s/retrying"
					    call_timeout_ms: 2000
					    retry: { max_attempts: 2, backoff_ms: 10, max_retry_after_ms: 100, budget_ms: 3000 }
					    breaker: { minimum_calls: 100, window_size: 100 }
					  hanging:
					    base_url: "%2$s/hanging"
					    call_timeout_ms: 300
					    breaker: { minimum_calls: 100, window_size: 100 }
					tiers:
					  enhanced:
					    priority: 1
					    routes:
					      - { path: /api/data, method: GET, fallback: drop, requires: [data] }
					""".formatted(stub.url(), blackHole.url()).getBytes(StandardCharsets.UTF_8)), Clock.systemUTC());

	private final DependencyGuards guards = new DependencyGuards(this.engine, CircuitBreakerRegistry.ofDefaults(),
			TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults(), GuardExecutor.platformThreads(4));

	private final WebClient client = WebClient.builder()
		.filter(new GuardingExchangeFilter(this.guards, "x-envoy-expected-rq-timeout-ms", Clock.systemUTC()))
		.build();

	@BeforeAll
	static void installBlockHound() {
		BlockingCalls.install();
		// Loading Reactor Netty reads jars, which is no call of the guard's and would be reported.
		stub.warmUpReactorNetty();
	}

	@BeforeEach
	void forgetEarlierCalls() {
		BlockingCalls.clear();
	}

	@AfterEach
	void closeGuards() {
		this.guards.close();
	}

	@AfterAll
	static void stopServers() {
		stub.close();
		blackHole.close();
	}

	@Test
	void blockHoundReportsABlockingCallOnAReactorThread() {
		// Thread.yield is on BlockHound's list of blocking calls, and waits for nothing.
		Mono.fromRunnable(Thread::yield).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(5));
		assertThat(BlockingCalls.seen()).singleElement().asString().contains("yield");
	}

	@Test
	void anAnswerARetryAndADeadlineBlockNoThread() {
		stub.answer(200, null);
		assertThat(status("/data", null)).isEqualTo(200);
		stub.answerThenRecover(503, "1", 1);
		assertThat(status("/retrying", null)).isEqualTo(200);
		assertThat(stub.requests).hasSize(2);
		stub.answer(200, null);
		assertThat(status("/data", Instant.now().plusMillis(500))).isEqualTo(200);
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> status("/data", Instant.now().minusMillis(1)))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.TIMEOUT));
		assertThat(BlockingCalls.seen()).isEmpty();
	}

	@Test
	void failuresThatOpenTheBreakerAndTellTheEngineAndTheRefusalsAfterBlockNoThread() {
		stub.answer(500, null);
		for (int i = 0; i < 3; i++) {
			assertThat(status("/data", null)).isEqualTo(500);
		}
		assertThat(this.guards.guard("data").circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(this.engine.dependency("data").state()).isEqualTo(DependencyState.FAILED);
		assertThatExceptionOfType(DependencyUnavailableException.class).isThrownBy(() -> status("/data", null))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.BREAKER_OPEN));
		assertThat(BlockingCalls.seen()).isEmpty();
	}

	@Test
	void aTimeOutBlocksNoThread() {
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> this.client.get()
				.uri(blackHole.url() + "/hanging")
				.retrieve()
				.toBodilessEntity()
				.subscribeOn(Schedulers.parallel())
				.block(Duration.ofSeconds(10)))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.TIMEOUT));
		assertThat(BlockingCalls.seen()).isEmpty();
	}

	private Integer status(String path, Instant deadline) {
		Mono<Integer> call = this.client.get()
			.uri(stub.url() + path)
			.exchangeToMono((response) -> Mono.just(response.statusCode().value()));
		if (deadline != null) {
			call = call.contextWrite(Context.of(CallDeadline.KEY, deadline));
		}
		return call.subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10));
	}

}
