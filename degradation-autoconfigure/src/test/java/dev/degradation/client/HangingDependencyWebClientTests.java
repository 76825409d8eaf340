package dev.degradation.client;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.client.DependencyUnavailableException.Reason;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A {@code WebClient} call to a dependency that accepts the connection and never answers: it
 * ends with {@link DependencyUnavailableException} at its time limit, and many such calls at once
 * cost no thread each (the time limit is a Reactor timer, the connections Netty's event loops').
 */
class HangingDependencyWebClientTests {

	private static final int CALLS = 100;

	/** Threads a burst may start beyond the ones a first burst started (none expected). */
	private static final int SPARE_THREADS = 4;

	private static final LoopbackDependency blackHole = LoopbackDependency.start().answer(Answer.hang());

	private final DegradationEngine engine = new DegradationEngine(ManifestLoader.standard()
		.load("hanging.yaml", """
				dependencies:
				  hanging:
				    base_url: "%s/hanging"
				    call_timeout_ms: 300
				    breaker: { minimum_calls: 1000, window_size: 1000 }
				tiers: { t: { priority: 1, routes: [ { path: /x, method: GET, fallback: drop } ] } }
				""".formatted(blackHole.url()).getBytes(StandardCharsets.UTF_8)), Clock.systemUTC());

	private final DependencyGuards guards = new DependencyGuards(this.engine, CircuitBreakerRegistry.ofDefaults(),
			TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults(), GuardExecutor.platformThreads(4));

	private final ConnectionProvider connections = ConnectionProvider.builder("hanging")
		.maxConnections(CALLS * 2)
		.build();

	private final WebClient client = WebClient.builder()
		.clientConnector(new ReactorClientHttpConnector(HttpClient.create(this.connections)))
		.filter(new GuardingExchangeFilter(this.guards, "x-envoy-expected-rq-timeout-ms", Clock.systemUTC()))
		.build();

	@AfterEach
	void close() {
		this.guards.close();
		this.connections.dispose();
	}

	@AfterAll
	static void stopBlackHole() {
		blackHole.close();
	}

	@Test
	void aHangingCallEndsWithDependencyUnavailableAtItsTimeLimit() {
		burst(CALLS);
		long started = System.nanoTime();
		assertThatExceptionOfType(DependencyUnavailableException.class).isThrownBy(() -> call().block())
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.TIMEOUT));
		// 300 ms less the answer's reserve of 6 ms; the margin is for a busy machine.
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(250),
				Duration.ofMillis(300 + 700));
		assertThat(this.guards.guard("hanging").timeLimiter().getName()).isEqualTo("hanging");
	}

	@Test
	void concurrentHangingCallsAddNoThreadPerCall() {
		// The first burst starts what Reactor Netty and Reactor start once: event loops, timers.
		assertThat(burst(CALLS)).isEqualTo(CALLS);
		int before = threads();
		AtomicInteger most = new AtomicInteger();
		int timedOut = burst(CALLS, () -> most.accumulateAndGet(threads(), Math::max));
		assertThat(timedOut).isEqualTo(CALLS);
		assertThat(most.get()).as("threads while %d calls hung, %d before", CALLS, before)
			.isLessThanOrEqualTo(before + SPARE_THREADS);
		assertThat(blackHole.connections()).isGreaterThanOrEqualTo(2 * CALLS);
	}

	/** Make calls at once, and return how many timed out. */
	private int burst(int calls) {
		return burst(calls, () -> {
		});
	}

	private int burst(int calls, Runnable whileHanging) {
		List<Mono<Reason>> all = IntStream.range(0, calls)
			.mapToObj((i) -> call().then(Mono.<Reason>empty())
				.onErrorResume(DependencyUnavailableException.class, (ex) -> Mono.just(ex.reason())))
			.toList();
		CompletableFuture<List<Reason>> ended = Flux.merge(all).collectList().toFuture();
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> {
			whileHanging.run();
			return ended.isDone();
		});
		return (int) ended.join().stream().filter(Reason.TIMEOUT::equals).count();
	}

	private Mono<Void> call() {
		return this.client.get().uri(blackHole.url() + "/hanging").retrieve().bodyToMono(Void.class);
	}

	private static int threads() {
		return ManagementFactory.getThreadMXBean().getThreadCount();
	}

}
