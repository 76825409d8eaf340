package dev.degradation.client;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A caller that gives up (its thread is interrupted, as a servlet container or an executor does
 * with work nobody waits for) is no evidence against the dependency: the breaker records neither
 * a failure nor a call, the attempt's own thread is interrupted too, and the caller gets a
 * {@link CancellationException}, not a {@link DependencyUnavailableException}.
 */
class CallerCancellationTests {

	private final DependencyGuards guards = new DependencyGuards(
			new DegradationEngine(ManifestLoader.standard().load("cancellation.yaml", """
					dependencies:
					  payments: { base_url: "http://127.0.0.1:9/pay", call_timeout_ms: 10000 }
					  ledger:
					    base_url: "http://127.0.0.1:9/ledger"
					    call_timeout_ms: 10000
					    retry: { backoff_ms: 5000 }
					tiers: { t: { priority: 1, routes: [ { path: /x, method: GET, fallback: drop } ] } }
					""".getBytes(StandardCharsets.UTF_8)), Clock.systemUTC()),
			CircuitBreakerRegistry.ofDefaults(), TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults());

	@AfterEach
	void close() {
		this.guards.close();
	}

	@Test
	void aCallerThatGivesUpIsNoFailureOfTheDependency() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch attemptInterrupted = new CountDownLatch(1);
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		Thread caller = new Thread(() -> {
			try {
				this.guards.call("payments", () -> {
					started.countDown();
					try {
						// A call that never answers: only its interruption ends it.
						new CountDownLatch(1).await();
					}
					catch (InterruptedException ex) {
						attemptInterrupted.countDown();
						throw ex;
					}
					return "charged";
				});
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
		});
		caller.start();
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		caller.interrupt();
		caller.join(Duration.ofSeconds(10).toMillis());
		assertThat(thrown.get()).isInstanceOf(CancellationException.class).hasMessageContaining("payments");
		assertThat(attemptInterrupted.await(10, TimeUnit.SECONDS)).isTrue();
		CircuitBreaker.Metrics metrics = this.guards.guard("payments").circuitBreaker().getMetrics();
		assertThat(metrics.getNumberOfFailedCalls()).isZero();
		assertThat(metrics.getNumberOfBufferedCalls()).isZero();
		// The permission it held was given back: the next call goes through.
		assertThat(this.guards.call("payments", () -> "charged")).isEqualTo("charged");
	}

	@Test
	void aCallerThatGivesUpWhileWaitingToRetryIsNoFurtherFailure() throws Exception {
		CompletableFuture<Throwable> thrown = new CompletableFuture<>();
		Thread caller = new Thread(() -> {
			try {
				// Refused at once, then a backoff of 2.5 to 5 s before the next attempt: the
				// caller gives up during that wait.
				this.guards.guard("ledger").call("GET", () -> {
					throw new java.net.ConnectException("Connection refused");
				}, (answer) -> CallOutcome.SUCCESS);
				thrown.complete(null);
			}
			catch (Throwable ex) {
				thrown.complete(ex);
			}
		});
		caller.start();
		CircuitBreaker.Metrics metrics = this.guards.guard("ledger").circuitBreaker().getMetrics();
		await().atMost(Duration.ofSeconds(10)).until(() -> metrics.getNumberOfFailedCalls() == 1);
		caller.interrupt();
		assertThat(thrown.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class)
			.hasMessageContaining("ledger");
		assertThat(metrics.getNumberOfFailedCalls()).isEqualTo(1);
	}

}
