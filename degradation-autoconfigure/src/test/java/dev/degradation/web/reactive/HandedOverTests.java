package dev.degradation.web.reactive;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What is handed to a waiting exchange (a turn, a place) is used by it or given back, exactly
 * once, however its client's leaving falls: before the hand-over, after it but before the exchange
 * goes on, or after.
 */
class HandedOverTests {

	/** Tasks the scheduler was given, run when the test says: the window between them is the race. */
	private final ConcurrentLinkedQueue<Runnable> scheduled = new ConcurrentLinkedQueue<>();

	private final Scheduler scheduler = Schedulers.fromExecutor(this.scheduled::add);

	private final AtomicInteger givenBack = new AtomicInteger();

	private final List<String> used = new ArrayList<>();

	@Test
	void aTurnHandedOverAsItsClientLeavesIsGivenBackOnce() {
		CompletableFuture<String> turn = new CompletableFuture<>();
		Disposable exchange = waitFor(turn);
		turn.complete("turn");
		exchange.dispose();
		runScheduled();
		assertThat(this.used).isEmpty();
		assertThat(this.givenBack).hasValue(1);
	}

	@Test
	void aClientThatLeavesBeforeTheHandOverCancelsItsWait() {
		CompletableFuture<String> turn = new CompletableFuture<>();
		Disposable exchange = waitFor(turn);
		exchange.dispose();
		assertThat(turn.complete("turn")).as("nothing can be handed to it any more").isFalse();
		runScheduled();
		assertThat(this.used).isEmpty();
		assertThat(this.givenBack).hasValue(0);
	}

	@Test
	void whatTheExchangeHasIsNotGivenBackWhenItsClientLeavesLater() {
		CompletableFuture<String> turn = new CompletableFuture<>();
		Disposable exchange = waitFor(turn);
		turn.complete("turn");
		runScheduled();
		exchange.dispose();
		assertThat(this.used).containsExactly("turn");
		assertThat(this.givenBack).hasValue(0);
	}

	@Test
	void nothingHandedOverIsNothingToGiveBack() {
		CompletableFuture<String> place = new CompletableFuture<>();
		Disposable exchange = waitFor(place);
		place.complete(null);
		exchange.dispose();
		runScheduled();
		assertThat(this.used).isEmpty();
		assertThat(this.givenBack).hasValue(0);
	}

	/** An exchange that waits for what the future hands over and keeps it, or gives it back. */
	private Disposable waitFor(CompletableFuture<String> handedOver) {
		return HandedOver.on(handedOver, this.scheduler, (value) -> this.givenBack.incrementAndGet())
			.subscribe(this.used::add);
	}

	private void runScheduled() {
		Runnable task;
		while ((task = this.scheduled.poll()) != null) {
			task.run();
		}
	}

}
