package dev.degradation.web;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The turns of cheap answers: as many at once as the gate has, the others wait, first come first
 * served, at most 100 ms and never past their caller's deadline, and a caller whose deadline has
 * passed does not wait.
 */
class CheapAnswerTurnsTests {

	@Test
	void aTurnIsTakenAtOnceWhileOneIsFree() {
		CheapAnswerTurns gate = gate(2);
		assertThat(gate.enter(-1)).isTrue();
		assertThat(gate.enter(TimeUnit.SECONDS.toNanos(1))).isTrue();
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void aWaitingAnswerGetsTheTurnTheLastOneGaveBack() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter(-1)).isTrue();
		CompletableFuture<Boolean> waiting = CompletableFuture
			.supplyAsync(() -> gate.enter(TimeUnit.SECONDS.toNanos(10)));
		await().atMost(Duration.ofSeconds(5)).until(() -> gate.waiting() == 1);
		assertThat(waiting).as("waits while the only turn is taken").isNotDone();
		gate.leave(System.nanoTime());
		assertThat(waiting).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void anAnswerWhoseWaitEndsWithoutATurnGoesOutWithoutOne() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter(-1)).isTrue();
		assertThat(gate.enter(TimeUnit.MILLISECONDS.toNanos(20))).isFalse();
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void theWaitIsAtMost100MillisecondsAndNeverPastTheCallersDeadline() {
		CheapAnswerTurns gate = CheapAnswerTurns.standard();
		long max = TimeUnit.MILLISECONDS.toNanos(100);
		assertThat(gate.waitNanos(-1)).as("no deadline").isEqualTo(max);
		assertThat(gate.waitNanos(TimeUnit.SECONDS.toNanos(30))).isEqualTo(max);
		assertThat(gate.waitNanos(TimeUnit.MILLISECONDS.toNanos(20))).isEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(gate.waitNanos(0)).as("the deadline has passed").isZero();
	}

	@Test
	void aCallerWhoseDeadlineHasPassedGetsNoTurnEvenWithOneFree() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter(0)).isFalse();
		assertThat(gate.enter(-1)).as("the free turn is still there").isTrue();
	}

	@Test
	void turnsAreTakenWhileAdmittedRequestsAreServedAndShortlyAfterNotOtherwise() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter(-1)).as("the only turn, taken").isTrue();
		long waited = System.nanoTime();
		assertThat(gate.enter(TimeUnit.MILLISECONDS.toNanos(20), true))
			.as("under work: waits for the taken turn and goes without one").isFalse();
		assertThat(System.nanoTime() - waited).as("waited its 20 ms for the turn")
			.isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
		long seen = System.nanoTime();
		boolean turn = gate.enter(TimeUnit.MILLISECONDS.toNanos(20), false);
		if (System.nanoTime() - seen < CheapAnswerTurns.HOLD_NANOS) {
			assertThat(turn).as("within the hold after the work, still in turns").isFalse();
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() - seen > 2 * CheapAnswerTurns.HOLD_NANOS);
		long before = System.nanoTime();
		assertThat(gate.enter(TimeUnit.SECONDS.toNanos(10), false)).as("no work: no turn taken").isFalse();
		assertThat(System.nanoTime() - before).as("and no wait for the taken one").isLessThan(TimeUnit.SECONDS.toNanos(5));
		gate.leave(System.nanoTime());
	}

	@Test
	void onAPlatformThreadATurnIsGivenBackAtOnceWhateverTheShortestTurn() {
		CheapAnswerTurns gate = new CheapAnswerTurns(1, TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(60));
		assertThat(gate.enter(-1)).isTrue();
		long since = System.nanoTime();
		gate.leave(since);
		assertThat(System.nanoTime() - since).as("not held its 60 s").isLessThan(TimeUnit.SECONDS.toNanos(30));
		assertThat(gate.enter(-1)).as("the turn is free again").isTrue();
	}

	/** A gate whose longest wait (30 s) no test reaches, so that only the deadline bounds it. */
	@Test
	void anAnswerWaitingWithoutAThreadGetsTheTurnGivenBackBeforeAThreadDoes() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter(-1)).isTrue();
		CompletableFuture<Boolean> later = gate.enterLater(TimeUnit.SECONDS.toNanos(10));
		assertThat(later).as("waits while the only turn is taken").isNotDone();
		assertThat(gate.waiting()).isOne();
		gate.leave(System.nanoTime());
		assertThat(later).isCompletedWithValue(true);
		assertThat(gate.enter(0)).isFalse();
		assertThat(gate.enterLater(TimeUnit.SECONDS.toNanos(10))).as("the turn is still the first answer's")
			.isNotDone();
	}

	@Test
	void anAnswerWaitingWithoutAThreadGoesOutWithoutATurnWhenItsWaitEndsAndACancelledOnePassesItsTurnOn() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter(-1)).isTrue();
		assertThat(gate.enterLater(TimeUnit.MILLISECONDS.toNanos(20))).succeedsWithin(Duration.ofSeconds(5))
			.isEqualTo(false);
		CompletableFuture<Boolean> cancelled = gate.enterLater(TimeUnit.SECONDS.toNanos(10));
		CompletableFuture<Boolean> next = gate.enterLater(TimeUnit.SECONDS.toNanos(10));
		cancelled.cancel(false);
		gate.leave(System.nanoTime());
		assertThat(next).isCompletedWithValue(true);
		assertThat(gate.enterLater(0)).as("a caller whose deadline has passed waits for nothing")
			.isCompletedWithValue(false);
		gate.leave(System.nanoTime());
		assertThat(gate.enterLater(-1)).as("a free turn is taken at once").isCompletedWithValue(true);
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void pastTheMostThatMayWaitAnAnswerGoesOutAtOnceOnEitherStack() {
		CheapAnswerTurns gate = new CheapAnswerTurns(1, TimeUnit.SECONDS.toNanos(30), 0, 3);
		assertThat(gate.enter(-1)).isTrue();
		CompletableFuture<Boolean> onThread = CompletableFuture.supplyAsync(() -> gate.enter(TimeUnit.SECONDS.toNanos(10)));
		await().atMost(Duration.ofSeconds(5)).until(() -> gate.waiting() == 1);
		CompletableFuture<Boolean> later = gate.enterLater(TimeUnit.SECONDS.toNanos(10));
		CompletableFuture<Boolean> third = gate.enterLater(TimeUnit.SECONDS.toNanos(10));
		assertThat(gate.waiting()).isEqualTo(3);
		assertThat(gate.enterLater(TimeUnit.SECONDS.toNanos(10))).as("a fourth without a thread")
			.isCompletedWithValue(false);
		long before = System.nanoTime();
		assertThat(gate.enter(TimeUnit.SECONDS.toNanos(10))).as("a fourth on its thread").isFalse();
		assertThat(System.nanoTime() - before).as("not held for its wait").isLessThan(TimeUnit.SECONDS.toNanos(5));
		assertThat(gate.waiting()).isEqualTo(3);
		gate.leave(System.nanoTime());
		assertThat(later).isCompletedWithValue(true);
		gate.leave(System.nanoTime());
		assertThat(third).isCompletedWithValue(true);
		gate.leave(System.nanoTime());
		assertThat(onThread).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
		assertThat(gate.waiting()).isZero();
	}

	private static CheapAnswerTurns gate(int permits) {
		return new CheapAnswerTurns(permits, TimeUnit.SECONDS.toNanos(30));
	}

}
