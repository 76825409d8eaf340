package dev.degradation.overload;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.degradation.overload.Admission.Admitted;

/**
 * The core requests waiting for a place, the optional second step after
 * {@link Admission.NotAdmitted#WAIT}: parked threads ({@link #await(long)}) and futures for a stack
 * whose threads must not wait ({@link #awaitWithoutThread()}), each handed a place as one frees.
 * Apart from {@link Admission} so that the decision, which never parks a thread and takes no lock,
 * reads without the lock, the condition and the queue that only waiting needs; a freed place costs
 * the decision's side two reads here ({@link #placeFreed()}) while nobody waits.
 */
final class AdmissionWaiters {

	private final Admission admission;

	private final LongSupplier nanoTime;

	/** Admission's count of refused requests, which a wait that ends without a place adds to. */
	private final LongAdder refused;

	private final AtomicInteger waiting = new AtomicInteger();

	/** Threads parked in {@link #await(long)}: only they need the lock and its signal. */
	private final AtomicInteger parked = new AtomicInteger();

	/**
	 * Hand-offs asked for while one runs: one thread drains the waiters at a time and runs again
	 * for those asked meanwhile, so that no freed place is missed and no thread waits for another.
	 */
	private final AtomicInteger handOffs = new AtomicInteger();

	private final ReentrantLock lock = new ReentrantLock();

	/**
	 * Requests waiting without a thread of their own (a reactive stack's), first come first. A
	 * waiter that timed out or was cancelled stays until it reaches the head, where the hand-off
	 * drops it: removal from the middle would cost a scan per waiter, the whole queue exactly
	 * under overload.
	 */
	private final Queue<CompletableFuture<Admitted>> waiters = new ConcurrentLinkedQueue<>();

	private final Condition released = this.lock.newCondition();

	private final LongAdder waits = new LongAdder();

	private final LongAdder waitedNanos = new LongAdder();

	AdmissionWaiters(Admission admission, LongSupplier nanoTime, LongAdder refused) {
		this.admission = admission;
		this.nanoTime = nanoTime;
		this.refused = refused;
	}

	/**
	 * Park the calling thread until a place frees, at most the given time.
	 * @param waitNanos the bound of the wait
	 * @return the admitted request, or {@code null} when no place freed in time (counted as
	 * refused)
	 */
	@Nullable Admitted await(long waitNanos) {
		long start = this.nanoTime.getAsLong();
		long end = start + waitNanos;
		this.waiting.incrementAndGet();
		this.parked.incrementAndGet();
		this.lock.lock();
		try {
			while (true) {
				Admitted admitted = this.admission.tryAdmit(this.admission.limit());
				if (admitted != null) {
					return admitted;
				}
				long left = end - this.nanoTime.getAsLong();
				if (left <= 0) {
					this.refused.increment();
					return null;
				}
				this.released.awaitNanos(left);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.refused.increment();
			return null;
		}
		finally {
			this.lock.unlock();
			this.parked.decrementAndGet();
			this.waiting.decrementAndGet();
			this.waits.increment();
			this.waitedNanos.add(this.nanoTime.getAsLong() - start);
		}
	}

	/**
	 * Wait for a place without parking a thread: the future is completed with the admitted
	 * request when a place frees, first come first; a future completed otherwise (cancelled when
	 * its caller's timer expires) counts the request as refused.
	 * @return the future admission
	 */
	CompletableFuture<Admitted> awaitWithoutThread() {
		long start = this.nanoTime.getAsLong();
		CompletableFuture<Admitted> waiter = new CompletableFuture<>();
		this.waiting.incrementAndGet();
		this.waiters.add(waiter);
		waiter.whenComplete((admitted, failure) -> {
			this.waiting.decrementAndGet();
			this.waits.increment();
			this.waitedNanos.add(this.nanoTime.getAsLong() - start);
			if (admitted == null) {
				this.refused.increment();
			}
		});
		// A place may have freed between the decision and the queueing.
		handOff();
		return waiter;
	}

	/**
	 * Hand a place that was just freed to a waiter, if any waits.
	 */
	void placeFreed() {
		if (!this.waiters.isEmpty()) {
			handOff();
		}
		if (this.parked.get() > 0) {
			this.lock.lock();
			try {
				this.released.signal();
			}
			finally {
				this.lock.unlock();
			}
		}
	}

	private void handOff() {
		if (this.handOffs.getAndIncrement() != 0) {
			return;
		}
		int asked = 1;
		do {
			CompletableFuture<Admitted> waiter;
			while ((waiter = this.waiters.peek()) != null) {
				if (waiter.isDone()) {
					this.waiters.poll();
					continue;
				}
				Admitted admitted = this.admission.tryAdmit(this.admission.limit());
				if (admitted == null) {
					break;
				}
				this.waiters.poll();
				if (!waiter.complete(admitted)) {
					// Timed out or cancelled as it was handed the place: the place is free again.
					this.admission.giveBack();
				}
			}
			asked = this.handOffs.addAndGet(-asked);
		}
		while (asked != 0);
	}

	int waiting() {
		return this.waiting.get();
	}

	long waits() {
		return this.waits.sum();
	}

	long waitedNanos() {
		return this.waitedNanos.sum();
	}

}
