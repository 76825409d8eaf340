package dev.degradation.web;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The turns of cheap answers: as many at once as the gate has, the others wait, first come first
 * served, at most their caller's deadline, and a caller whose deadline has passed does not wait.
 */
class CheapAnswerGateTests {

	@Test
	void aTurnIsTakenAtOnceWhileOneIsFree() {
		CheapAnswerGate gate = new CheapAnswerGate(2);
		assertThat(gate.enter(-1)).isTrue();
		assertThat(gate.enter(TimeUnit.SECONDS.toNanos(1))).isTrue();
	}

	@Test
	void aWaitingAnswerGetsTheTurnTheLastOneGaveBack() throws Exception {
		CheapAnswerGate gate = new CheapAnswerGate(1);
		assertThat(gate.enter(-1)).isTrue();
		CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> gate.enter(TimeUnit.SECONDS.toNanos(10)));
		assertThat(waiting).isNotDone();
		gate.leave();
		assertThat(waiting).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
	}

	@Test
	void theWaitEndsWithTheCallersDeadlineAndTheAnswerGoesOutWithoutATurn() {
		CheapAnswerGate gate = new CheapAnswerGate(1);
		assertThat(gate.enter(-1)).isTrue();
		long start = System.nanoTime();
		assertThat(gate.enter(TimeUnit.MILLISECONDS.toNanos(50))).isFalse();
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
	}

	@Test
	void aCallerWhoseDeadlineHasPassedDoesNotWait() {
		CheapAnswerGate gate = new CheapAnswerGate(1);
		assertThat(gate.enter(-1)).isTrue();
		long start = System.nanoTime();
		assertThat(gate.enter(0)).isFalse();
		assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(500));
	}

}
