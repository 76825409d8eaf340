package dev.degradation.web.reactive;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Something handed to a waiting exchange through a future (a cheap answer's turn, a place in
 * admission) that must be given back when the exchange is gone before it could use it.
 *
 * <p>Why not {@code doOnDiscard}: {@code publishOn} drops a value it holds for its scheduler when
 * it is cancelled, without discarding it, and a future already completed ignores its
 * cancellation. A client that left just as its turn was handed over then kept the turn for good:
 * with one turn on two cores, every later cheap answer waited its whole wait. Here the exchange and
 * its cancellation race to claim what was handed over, and exactly one of them has it: the
 * exchange uses it, or the cancellation gives it back.
 */
final class HandedOver {

	private HandedOver() {
	}

	/**
	 * Return the future's value on the scheduler, given back if the exchange is cancelled before it
	 * has it.
	 * @param <T> what is handed over
	 * @param future what completes with it, or with {@code null} for nothing
	 * @param scheduler where the exchange goes on
	 * @param giveBack how to give it back
	 * @return the value, or empty when the future completed with {@code null}
	 */
	static <T> Mono<T> on(CompletableFuture<T> future, Scheduler scheduler, Consumer<T> giveBack) {
		AtomicBoolean claimed = new AtomicBoolean();
		return Mono.fromFuture(future).publishOn(scheduler).doOnCancel(() -> {
			// Cancelled first, the future can no longer be handed anything; completed first, its
			// value is the exchange's only if the exchange already claimed it.
			if (!future.cancel(false) && !future.isCompletedExceptionally() && claimed.compareAndSet(false, true)) {
				T value = future.join();
				if (value != null) {
					giveBack.accept(value);
				}
			}
		}).filter((value) -> claimed.compareAndSet(false, true));
	}

}
