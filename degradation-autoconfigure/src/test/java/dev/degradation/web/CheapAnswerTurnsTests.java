package dev.degradation.web;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The turns of cheap answers: as many at once as the gate has, the others wait, first come first
 * served, at most the gate's longest wait (100 ms as the starter makes them).
 */
class CheapAnswerTurnsTests {

	@Test
	void aTurnIsTakenAtOnceWhileOneIsFree() {
		CheapAnswerTurns gate = gate(2);
		assertThat(gate.enter()).isTrue();
		assertThat(gate.enter()).isTrue();
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void aWaitingAnswerGetsTheTurnTheLastOneGaveBack() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter()).isTrue();
		CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(gate::enter);
		await().atMost(Duration.ofSeconds(5)).until(() -> gate.waiting() == 1);
		assertThat(waiting).as("waits while the only turn is taken").isNotDone();
		gate.leave(System.nanoTime());
		assertThat(waiting).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void anAnswerWhoseWaitEndsWithoutATurnGoesOutWithoutOne() {
		CheapAnswerTurns gate = CheapAnswerTurns.of(1, Duration.ofMillis(20));
		assertThat(gate.enter()).isTrue();
		long waited = System.nanoTime();
		assertThat(gate.enter()).isFalse();
		assertThat(System.nanoTime() - waited).as("waited its 20 ms for the turn")
			.isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void theStartersTurnsWaitAtMost100Milliseconds() {
		CheapAnswerTurns gate = CheapAnswerTurns.standard();
		for (int i = 0; i < Math.max(1, Runtime.getRuntime().availableProcessors() / 2); i++) {
			assertThat(gate.enter()).as("turn %d of half the cores", i + 1).isTrue();
		}
		long waited = System.nanoTime();
		assertThat(gate.enter()).as("every turn taken").isFalse();
		assertThat(System.nanoTime() - waited).as("waited its 100 ms")
			.isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100))
			.isLessThan(TimeUnit.SECONDS.toNanos(1));
	}

	@Test
	void turnsAreTakenWhileAdmittedRequestsAreServedAndShortlyAfterNotOtherwise() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.taken(false)).as("nothing served yet").isFalse();
		long seen = System.nanoTime();
		assertThat(gate.taken(true)).as("under work").isTrue();
		boolean held = gate.taken(false);
		// Seen at most a millisecond late: the time of the work is written once a millisecond.
		if (System.nanoTime() - seen < CheapAnswerTurns.HOLD_NANOS - TimeUnit.MILLISECONDS.toNanos(1)) {
			assertThat(held).as("within the hold after the work, still in turns").isTrue();
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> !gate.taken(false));
	}

	@Test
	void onAPlatformThreadATurnIsGivenBackAtOnceWhateverTheShortestTurn() {
		CheapAnswerTurns gate = new CheapAnswerTurns(1, TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(60));
		assertThat(gate.enter()).isTrue();
		long since = System.nanoTime();
		gate.leave(since);
		assertThat(System.nanoTime() - since).as("not held its 60 s").isLessThan(TimeUnit.SECONDS.toNanos(30));
		assertThat(gate.enter()).as("the turn is free again").isTrue();
	}

	@Test
	void anAnswerWaitingWithoutAThreadGetsTheTurnGivenBackBeforeAThreadDoes() {
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter()).isTrue();
		CompletableFuture<Boolean> onThread = CompletableFuture.supplyAsync(gate::enter);
		await().atMost(Duration.ofSeconds(5)).until(() -> gate.waiting() == 1);
		CompletableFuture<Boolean> later = gate.enterLater();
		assertThat(later).as("waits while the only turn is taken").isNotDone();
		assertThat(gate.waiting()).isEqualTo(2);
		gate.leave(System.nanoTime());
		assertThat(later).as("the answer without a thread, though it came second").isCompletedWithValue(true);
		assertThat(onThread).as("the answer on its thread waits on").isNotDone();
		CompletableFuture<Boolean> third = gate.enterLater();
		assertThat(third).as("the turn is still the first answer's").isNotDone();
		gate.leave(System.nanoTime());
		assertThat(third).as("again before the thread").isCompletedWithValue(true);
		assertThat(onThread).isNotDone();
		gate.leave(System.nanoTime());
		assertThat(onThread).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
	}

	@Test
	void anAnswerWaitingWithoutAThreadGoesOutWithoutATurnWhenItsWaitEndsAndACancelledOnePassesItsTurnOn() {
		CheapAnswerTurns shortWait = CheapAnswerTurns.of(1, Duration.ofMillis(20));
		assertThat(shortWait.enter()).isTrue();
		assertThat(shortWait.enterLater()).succeedsWithin(Duration.ofSeconds(5)).isEqualTo(false);
		CheapAnswerTurns gate = gate(1);
		assertThat(gate.enter()).isTrue();
		CompletableFuture<Boolean> cancelled = gate.enterLater();
		CompletableFuture<Boolean> next = gate.enterLater();
		cancelled.cancel(false);
		gate.leave(System.nanoTime());
		assertThat(next).isCompletedWithValue(true);
		gate.leave(System.nanoTime());
		assertThat(gate.enterLater()).as("a free turn is taken at once").isCompletedWithValue(true);
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void pastTheMostThatMayWaitAnAnswerGoesOutAtOnceOnEitherStack() {
		CheapAnswerTurns gate = new CheapAnswerTurns(1, TimeUnit.SECONDS.toNanos(30), 0, 3);
		assertThat(gate.enter()).isTrue();
		CompletableFuture<Boolean> onThread = CompletableFuture.supplyAsync(gate::enter);
		await().atMost(Duration.ofSeconds(5)).until(() -> gate.waiting() == 1);
		CompletableFuture<Boolean> later = gate.enterLater();
		CompletableFuture<Boolean> third = gate.enterLater();
		assertThat(gate.waiting()).isEqualTo(3);
		assertThat(gate.enterLater()).as("a fourth without a thread").isCompletedWithValue(false);
		long before = System.nanoTime();
		assertThat(gate.enter()).as("a fourth on its thread").isFalse();
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

	/** A gate whose longest wait (30 s) no test reaches. */
	private static CheapAnswerTurns gate(int permits) {
		return new CheapAnswerTurns(permits, TimeUnit.SECONDS.toNanos(30));
	}

}
