package dev.degradation.web;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The turns of cheap answers as they were before the decision moved (commit 68f38fc), for
 * {@link PreviousDegradationFilter}. Not part of the product.
 */
final class PreviousCheapAnswerGate {

	/** The largest body written in turn: what fits a socket's send buffer at once. */
	static final int MAX_BODY_BYTES = 16 * 1024;

	/**
	 * The longest an answer waits for its turn. A closed-loop flood of a few hundred clients
	 * waits less than that for its turns, which is what keeps it parked; an open-loop flood that
	 * arrives faster than the turns come would otherwise wait up to its deadline (measured at 50
	 * times the capacity: thousands of client timeouts), and a platform thread parked here is one
	 * Tomcat thread fewer for the core for at most this long.
	 */
	static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final Semaphore permits;

	private final long maxWaitNanos;

	PreviousCheapAnswerGate(int permits, long maxWaitNanos) {
		this.permits = new Semaphore(permits, true);
		this.maxWaitNanos = maxWaitNanos;
	}

	/**
	 * Create the gate of this machine: half its cores, at least one.
	 * @return the gate
	 */
	static PreviousCheapAnswerGate standard() {
		return new PreviousCheapAnswerGate(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), MAX_WAIT_NANOS);
	}

	/**
	 * Wait for a turn to write a cheap answer.
	 * @param deadlineNanos how long the caller still waits, {@code 0} when its deadline has passed
	 * (it is answered at once), or a negative number for no deadline
	 * @return whether a turn was taken, to be given back with {@link #leave()}
	 */
	boolean enter(long deadlineNanos) {
		long wait = waitNanos(deadlineNanos);
		if (wait == 0) {
			return false;
		}
		try {
			return this.permits.tryAcquire(wait, TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * Return how long an answer may wait for its turn: at most this gate's longest wait
	 * ({@link #MAX_WAIT_NANOS} for the standard gate), never past its caller's deadline, not at all
	 * once that has passed.
	 * @param deadlineNanos how long the caller still waits, {@code 0} when its deadline has passed,
	 * or a negative number for no deadline
	 * @return the wait, in nanoseconds
	 */
	long waitNanos(long deadlineNanos) {
		return (deadlineNanos < 0) ? this.maxWaitNanos : Math.min(deadlineNanos, this.maxWaitNanos);
	}

	/**
	 * Return how many answers are waiting for their turn now.
	 * @return an estimate, as {@link Semaphore#getQueueLength()} gives it
	 */
	int waiting() {
		return this.permits.getQueueLength();
	}

	/**
	 * Give a turn back.
	 */
	void leave() {
		this.permits.release();
	}

}
