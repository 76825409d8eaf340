package dev.degradation.client;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The bounded executor of the guarded calls that need a thread: full, it refuses at once and
 * counts the refusal; a call that overran is interrupted, and one that ignores its interrupt
 * keeps its place until its thread is actually free; through the guard a refusal is
 * {@code EXECUTOR_FULL}, no evidence against the dependency.
 */
class GuardExecutorTests {

	private final GuardExecutor executor = GuardExecutor.platformThreads(2);

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void close() {
		this.release.countDown();
		this.executor.close();
	}

	@Test
	void whenFullItRefusesAtOnceAndCountsTheRefusal() throws Exception {
		CountDownLatch running = new CountDownLatch(2);
		CompletableFuture<?> first = CompletableFuture.runAsync(() -> runHeld(running));
		CompletableFuture<?> second = CompletableFuture.runAsync(() -> runHeld(running));
		assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.executor.active()).isEqualTo(2);
		long started = System.nanoTime();
		assertThatExceptionOfType(RejectedExecutionException.class)
			.isThrownBy(() -> this.executor.run(() -> "third", Duration.ofSeconds(10)));
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
		assertThat(this.executor.rejected()).isEqualTo(1);
		this.release.countDown();
		CompletableFuture.allOf(first, second).get(10, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.executor.active() == 0);
		assertThat(this.executor.run(() -> "fourth", Duration.ofSeconds(10))).isEqualTo("fourth");
	}

	@Test
	void aCallThatIgnoresItsInterruptKeepsItsPlaceUntilItsThreadIsFree() throws Exception {
		GuardExecutor single = GuardExecutor.platformThreads(1);
		try {
			CountDownLatch interrupted = new CountDownLatch(1);
			assertThatExceptionOfType(TimeoutException.class).isThrownBy(() -> single.run(() -> {
				// A blocking read that no interrupt ends, as Apache HttpClient's classic one.
				for (;;) {
					try {
						if (this.release.await(10, TimeUnit.MILLISECONDS)) {
							return "late";
						}
					}
					catch (InterruptedException ex) {
						interrupted.countDown();
					}
				}
			}, Duration.ofMillis(50)));
			assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(single.active()).isEqualTo(1);
			assertThatExceptionOfType(RejectedExecutionException.class)
				.isThrownBy(() -> single.run(() -> "next", Duration.ofSeconds(1)));
			this.release.countDown();
			await().atMost(Duration.ofSeconds(10)).until(() -> single.active() == 0);
			assertThat(single.run(() -> "next", Duration.ofSeconds(10))).isEqualTo("next");
		}
		finally {
			single.close();
		}
	}

	@Test
	void aGuardedCallRefusedForWantOfAThreadIsNoEvidenceAgainstTheDependency() throws Exception {
		DependencyGuards guards = new DependencyGuards(
				new DegradationEngine(ManifestLoader.standard().load("executor.yaml", """
						dependencies:
						  sdk: { base_url: "http://127.0.0.1:9/sdk", call_timeout_ms: 10000 }
						tiers: { t: { priority: 1, routes: [ { path: /x, method: GET, fallback: drop } ] } }
						""".getBytes(StandardCharsets.UTF_8)), Clock.systemUTC()),
				CircuitBreakerRegistry.ofDefaults(), TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults(),
				GuardExecutor.platformThreads(1));
		try {
			CountDownLatch running = new CountDownLatch(1);
			CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> guards.call("sdk", () -> {
				running.countDown();
				this.release.await();
				return "done";
			}));
			assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
			assertThatExceptionOfType(DependencyUnavailableException.class)
				.isThrownBy(() -> guards.call("sdk", () -> "refused"))
				.satisfies((ex) -> assertThat(ex.reason())
					.isEqualTo(DependencyUnavailableException.Reason.EXECUTOR_FULL));
			assertThat(guards.executor().rejected()).isEqualTo(1);
			this.release.countDown();
			assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			CircuitBreaker.Metrics metrics = guards.guard("sdk").circuitBreaker().getMetrics();
			assertThat(metrics.getNumberOfFailedCalls()).isZero();
			assertThat(metrics.getNumberOfSuccessfulCalls()).isEqualTo(1);
		}
		finally {
			guards.close();
		}
	}

	@Test
	void itTakesAtLeastOneCall() {
		assertThatIllegalArgumentException().isThrownBy(() -> GuardExecutor.platformThreads(0))
			.withMessageContaining("'maxCalls'");
	}

	private void runHeld(CountDownLatch running) {
		try {
			this.executor.run(() -> {
				running.countDown();
				this.release.await();
				return "held";
			}, Duration.ofSeconds(30));
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
