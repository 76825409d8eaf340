package dev.degradation.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The retry path of a guard through the dependency's Resilience4j {@link Retry}, on a clock the
 * test moves: every wait the guard would sleep moves the clock instead, and every attempt takes
 * 100 ms of it. The server's {@code Retry-After} is waited capped at {@code max_retry_after_ms},
 * no wait starts that would end past {@code budget_ms} (less the answer's reserve) or the
 * request's deadline, and Resilience4j's metrics count the calls.
 */
class DependencyGuardRetryTests {

	private static final Duration ATTEMPT = Duration.ofMillis(100);

	private final TestClock clock = TestClock.at(Instant.parse("2026-01-01T00:00:00Z"));

	private final List<Duration> waits = new CopyOnWriteArrayList<>();

	private final RetryRegistry retries = RetryRegistry.ofDefaults();

	private final DependencyGuards guards = new DependencyGuards(
			new DegradationEngine(ManifestLoader.standard().load("retry.yaml", """
					dependencies:
					  orders:
					    base_url: "http://127.0.0.1:9/orders"
					    call_timeout_ms: 5000
					    retry: { max_attempts: 4, backoff_ms: 100, max_retry_after_ms: 300, budget_ms: 1000 }
					    breaker: { minimum_calls: 100, window_size: 100 }
					tiers: { t: { priority: 1, routes: [ { path: /x, method: GET, fallback: drop } ] } }
					""".getBytes(StandardCharsets.UTF_8)), this.clock),
			CircuitBreakerRegistry.ofDefaults(), TimeLimiterRegistry.ofDefaults(), this.retries,
			GuardExecutor.platformThreads(4), (wait) -> {
				this.waits.add(wait);
				this.clock.advance(wait);
			});

	private final DependencyGuard guard = this.guards.guard("orders");

	@AfterEach
	void close() {
		this.guards.close();
	}

	@Test
	void theGuardsRetryIsResilience4jsOwnAsRegistered() {
		assertThat(this.guard.retry()).isSameAs(this.retries.retry("orders"));
		assertThat(this.guard.retry().getRetryConfig().getMaxAttempts()).isEqualTo(4);
	}

	@Test
	void aServersRetryAfterIsWaitedCappedAtMaxRetryAfter() {
		Answers answers = new Answers(503, 200);
		assertThat(call(answers, "3600")).isEqualTo(200);
		assertThat(this.waits).containsExactly(Duration.ofMillis(300));
		assertThat(answers.made).hasValue(2);
		Retry.Metrics metrics = this.guard.retry().getMetrics();
		assertThat(metrics.getNumberOfSuccessfulCallsWithRetryAttempt()).isEqualTo(1);
	}

	@Test
	void noWaitStartsThatWouldEndPastTheBudget() {
		Instant start = this.clock.instant();
		Answers answers = new Answers(503, 503, 503, 503);
		// 100 ms attempt, 300 ms wait, 100, 300, 100: 900 ms; a further 300 ms wait would end
		// past the budget of 1000 ms less the 20 ms kept for the answer.
		assertThat(call(answers, "3600")).isEqualTo(503);
		assertThat(this.waits).containsExactly(Duration.ofMillis(300), Duration.ofMillis(300));
		assertThat(answers.made).hasValue(3);
		assertThat(Duration.between(start, this.clock.instant())).isLessThanOrEqualTo(Duration.ofMillis(1000));
	}

	@Test
	void aRetryAfterInThePastOrZeroIsNoWaitAndTheAttemptsEndAtMaxAttempts() {
		Answers answers = new Answers(503, 503, 503, 503, 200);
		assertThat(call(answers, "0")).isEqualTo(503);
		assertThat(this.waits).containsExactly(Duration.ZERO, Duration.ZERO, Duration.ZERO);
		assertThat(answers.made).hasValue(4);
		assertThat(this.guard.retry().getMetrics().getNumberOfFailedCallsWithRetryAttempt()).isEqualTo(1);
	}

	@Test
	void withoutRetryAfterTheWaitIsTheJitteredExponentialBackoff() {
		Answers answers = new Answers(503, 503, 200);
		assertThat(call(answers, null)).isEqualTo(200);
		assertThat(this.waits).hasSize(2);
		assertThat(this.waits.get(0)).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
		assertThat(this.waits.get(1)).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
	}

	@Test
	void aDeadlineShorterThanTheBudgetBoundsTheWaits() throws Exception {
		Answers answers = new Answers(503, 200);
		Integer[] status = new Integer[1];
		// 250 ms left: after a 100 ms attempt, a 300 ms wait cannot fit.
		CallDeadline.runWithin(this.clock.instant().plusMillis(250), () -> status[0] = call(answers, "3600"));
		assertThat(status[0]).isEqualTo(503);
		assertThat(this.waits).isEmpty();
		assertThat(answers.made).hasValue(1);
	}

	@Test
	void aConnectionErrorIsRetriedAndAnyOtherFailureIsNot() {
		AtomicInteger made = new AtomicInteger();
		Integer status = this.guard.call("GET", () -> {
			this.clock.advance(ATTEMPT);
			if (made.incrementAndGet() == 1) {
				throw new java.net.ConnectException("Connection refused");
			}
			return 200;
		}, (answer) -> CallOutcome.SUCCESS);
		assertThat(status).isEqualTo(200);
		assertThat(made).hasValue(2);
		assertThat(this.waits).hasSize(1);
		AtomicInteger failed = new AtomicInteger();
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> this.guard.call("GET", () -> {
				failed.incrementAndGet();
				throw new IllegalStateException("a bug");
			}, (answer) -> CallOutcome.SUCCESS))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(DependencyUnavailableException.Reason.FAILED));
		assertThat(failed).hasValue(1);
		assertThat(this.guard.retry().getMetrics().getNumberOfFailedCallsWithoutRetryAttempt()).isEqualTo(1);
	}

	@Test
	void aMethodThatIsNotSafeToRepeatIsNeverRetried() {
		Answers answers = new Answers(503, 200);
		assertThat(this.guard.call("POST", answers::next, this::judge).status()).isEqualTo(503);
		assertThat(answers.made).hasValue(1);
		assertThat(this.guard.retry().getMetrics().getNumberOfTotalCalls()).isZero();
	}

	@Test
	void aCallerThatGivesUpDuringTheWaitGetsACancellationAndNoFurtherAttempt() {
		DependencyGuards interrupted = new DependencyGuards(
				new DegradationEngine(ManifestLoader.standard().load("retry.yaml", """
						dependencies:
						  orders: { base_url: "http://127.0.0.1:9/orders", retry: { max_attempts: 3 } }
						tiers: { t: { priority: 1, routes: [ { path: /x, method: GET, fallback: drop } ] } }
						""".getBytes(StandardCharsets.UTF_8)), this.clock),
				CircuitBreakerRegistry.ofDefaults(), TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults(),
				GuardExecutor.platformThreads(1), (wait) -> {
					throw new InterruptedException();
				});
		try {
			Answers answers = new Answers(503, 200);
			assertThatExceptionOfType(CancellationException.class)
				.isThrownBy(() -> interrupted.guard("orders").call("GET", answers::next, this::judge));
			assertThat(answers.made).hasValue(1);
			assertThat(Thread.interrupted()).isTrue();
		}
		finally {
			interrupted.close();
		}
	}

	private Integer call(Answers answers, String retryAfter) {
		answers.retryAfter = retryAfter;
		return this.guard.call("GET", answers::next, this::judge).status();
	}

	private CallOutcome judge(Answer answer) {
		return (answer.status() == 503) ? new CallOutcome(true, true, RetryAfter.parse(answer.retryAfter(), this.clock))
				: CallOutcome.SUCCESS;
	}

	private record Answer(int status, String retryAfter) {

	}

	/** The statuses a dependency answers in turn, each after 100 ms of the test's clock. */
	private final class Answers {

		private final Deque<Integer> statuses = new ArrayDeque<>();

		final AtomicInteger made = new AtomicInteger();

		String retryAfter;

		Answers(Integer... statuses) {
			this.statuses.addAll(List.of(statuses));
		}

		Answer next() {
			DependencyGuardRetryTests.this.clock.advance(ATTEMPT);
			this.made.incrementAndGet();
			return new Answer(this.statuses.removeFirst(), this.retryAfter);
		}

	}

}
