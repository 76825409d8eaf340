package dev.degradation.web;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.core.task.VirtualThreadTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a virtual thread a cheap answer's turn lasts at least the gate's shortest turn, so that a
 * flood is paced while requests are served; the next answer waits for the rest of it. The
 * default test run, on the build's Java 17, leaves it out; the {@code virtual-threads} profile
 * runs it on the machine's Java 25 JDK, as {@code .ci/run} does.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class CheapAnswerTurnsOnVirtualThreadsTests {

	@Test
	void aTurnTakenOnAVirtualThreadIsGivenBackNoSoonerThanTheShortestTurn() throws Exception {
		long minTurn = TimeUnit.MILLISECONDS.toNanos(200);
		CheapAnswerTurns gate = new CheapAnswerTurns(1, TimeUnit.SECONDS.toNanos(30), minTurn);
		VirtualThreadTaskExecutor executor = new VirtualThreadTaskExecutor("cheap-answer-");
		CompletableFuture<Long> held = new CompletableFuture<>();
		executor.execute(() -> {
			assertThat(gate.enter()).isTrue();
			long since = System.nanoTime();
			gate.leave(since);
			held.complete(System.nanoTime() - since);
		});
		assertThat(held.get(10, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(minTurn);
		CompletableFuture<Boolean> next = new CompletableFuture<>();
		executor.execute(() -> next.complete(gate.enter()));
		assertThat(next).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
	}

}
