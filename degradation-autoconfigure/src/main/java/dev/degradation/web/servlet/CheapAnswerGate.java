package dev.degradation.web.servlet;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * Bounds how many answers that do no work for their caller (a shed route's small fallback, a
 * refusal) are written at once, so that a flood of them cannot push the served requests back in
 * the line for the CPU.
 *
 * <p>Why: when clients flood a shed route as fast as it answers (a retry storm), the cheap
 * answers saturate the CPU. Every request thread (a platform thread of Tomcat's pool, or a virtual
 * thread on a few carriers sharing one first-in, first-out queue) then waits behind the flood
 * each time it needs the CPU, and a served request needs it several times: measured on the
 * sample's one-connection checkout offered 0.8x its capacity while 200 clients flooded a shed
 * route, the core kept 74 % on platform threads and 0 to 3 % on virtual threads (its connection
 * held 90 to 130 ms for 20 ms of work). A request parked here needs no CPU, and a flooding
 * client's next request only comes once it has its answer, so the flood keeps a few threads
 * runnable instead of hundreds: with this gate the core kept 97 % and 89 %. Half the cores, at
 * least one, write such answers at once; the others wait their turn, first come first served, at
 * most 100 ms and never past the caller's deadline, and are then answered anyway. Only answers
 * that fit a socket's send buffer take a turn, so that a slow reader cannot hold one.
 *
 * <p>Turns are taken only while someone waits for the CPU's work: while admitted requests are
 * served or wait for a place, and for {@link #HOLD_NANOS} after the last of them. With no such
 * request there is nothing to protect, and one turn at a time would make a fallback slower than
 * the live routes (measured on the sample's static fallback alone under 32 connections: 0.71 to
 * 0.83 of its cheapest live route's throughput, all of it the turns' hand-offs). Without an
 * {@code overload} section nothing is admitted, so nothing takes turns.
 *
 * <p>On a virtual thread a turn lasts at least {@link #MIN_TURN_NANOS}, the answer sent at once
 * and the turn held the rest of that time: each turn then lets out at most 5,000 cheap answers a second, so that while
 * requests are served a closed-loop flood (or a retry storm of refused callers) is slowed to what
 * the turns let out instead of taking the whole CPU. On virtual threads this is what keeps the
 * core served: a virtual thread that wakes from its work waits for a carrier behind every
 * runnable request, first in, first out, and the flood's requests are runnable until they reach
 * the gate. Measured on the sample's checkout on virtual threads, 200 clients retrying the core,
 * turns of any length against turns of at least 200 us, side by side: 28 against 47 answers a
 * second of its capacity of 50, admitted p99 580 against 100 to 144 ms, 158 to 287 client
 * timeouts against none; on platform threads, with 100 clients on the core and 100 flooding a
 * shed route, 46 both ways.
 */
final class CheapAnswerGate {

	/**
	 * The longest an answer waits for its turn. A closed-loop flood of a few hundred clients
	 * waits less than that for its turns, which is what keeps it parked; an open-loop flood that
	 * arrives faster than the turns come would otherwise wait up to its deadline (measured at 50
	 * times the capacity: thousands of client timeouts), and a platform thread parked here is one
	 * Tomcat thread fewer for the core for at most this long.
	 */
	static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/**
	 * How long turns are still taken after the last admitted request was seen in flight: longer
	 * than the gaps between the requests of a core route served near its capacity, so that a flood
	 * is not let loose in every gap and met by the next core request as a crowd of runnable
	 * threads; short enough that a benchmark of a fallback alone is not measured in turns.
	 */
	static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	/**
	 * The shortest a turn lasts while someone waits for the CPU's work: at most 5,000 cheap answers
	 * a second for each turn, half the cores' turns together about a third of the CPU at the cost
	 * measured of a cheap answer (accepting, reading and answering it, 100 to 250 us).
	 */
	static final long MIN_TURN_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	/** {@code Thread::isVirtual}, on a Java that has virtual threads. */
	private static final @Nullable MethodHandle IS_VIRTUAL = isVirtual();

	private final Semaphore permits;

	private final long minTurnNanos;

	/** How stale {@link #servingSeenAt} may be, a small part of {@link #HOLD_NANOS}. */
	private static final long SEEN_PRECISION_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** When an admitted request was last seen in flight by a cheap answer; only they write it. */
	private volatile long servingSeenAt;

	private final long maxWaitNanos;

	CheapAnswerGate(int permits, long maxWaitNanos) {
		this(permits, maxWaitNanos, 0);
	}

	CheapAnswerGate(int permits, long maxWaitNanos, long minTurnNanos) {
		this.permits = new Semaphore(permits, true);
		this.maxWaitNanos = maxWaitNanos;
		this.minTurnNanos = minTurnNanos;
		this.servingSeenAt = System.nanoTime() - 2 * HOLD_NANOS;
	}

	/**
	 * Create the gate of this machine: half its cores, at least one.
	 * @return the gate
	 */
	static CheapAnswerGate standard() {
		return new CheapAnswerGate(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), MAX_WAIT_NANOS,
				MIN_TURN_NANOS);
	}

	/**
	 * Wait for a turn to write a cheap answer, if admitted requests are served now or were within
	 * {@link #HOLD_NANOS}.
	 * @param deadlineNanos how long the caller still waits, {@code 0} when its deadline has passed
	 * (it is answered at once), or a negative number for no deadline
	 * @param serving whether admitted requests are in flight or waiting for a place now
	 * @return whether a turn was taken, to be given back with {@link #leave(long)}
	 */
	boolean enter(long deadlineNanos, boolean serving) {
		long now = System.nanoTime();
		if (serving) {
			// Written at most once a millisecond: under a flood every cheap answer comes here, and
			// a write each would bounce the field's cache line between the cores.
			if (now - this.servingSeenAt > SEEN_PRECISION_NANOS) {
				this.servingSeenAt = now;
			}
		}
		else if (now - this.servingSeenAt > HOLD_NANOS) {
			return false;
		}
		return enter(deadlineNanos);
	}

	/**
	 * Wait for a turn to write a cheap answer, whatever is served.
	 * @param deadlineNanos how long the caller still waits, {@code 0} when its deadline has passed
	 * (it is answered at once), or a negative number for no deadline
	 * @return whether a turn was taken, to be given back with {@link #leave(long)}
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
	 * Give a turn back, once it has lasted the gate's shortest turn.
	 * @param since when the turn was taken, by {@link System#nanoTime()}
	 */
	void leave(long since) {
		if (this.minTurnNanos > 0 && onVirtualThread()) {
			long rest;
			while ((rest = since + this.minTurnNanos - System.nanoTime()) > 0) {
				LockSupport.parkNanos(rest);
			}
		}
		this.permits.release();
	}

	/**
	 * Whether the current thread is a virtual one (never on Java 17, which has none). Only there
	 * do turns last their shortest time: a platform thread held in a turn is one of the server's
	 * request threads, and with the flood's requests parked in line for longer turns they took the
	 * pool the core's requests need (measured on platform threads, core offered 0.8x while 200
	 * clients flood: 94 % of the core kept and a p99 of 614 to 676 ms, against 99 % and 172 ms with
	 * turns of any length).
	 */
	private static boolean onVirtualThread() {
		MethodHandle isVirtual = IS_VIRTUAL;
		if (isVirtual == null) {
			return false;
		}
		try {
			return (boolean) isVirtual.invokeExact(Thread.currentThread());
		}
		catch (Throwable ex) {
			return false;
		}
	}

	private static @Nullable MethodHandle isVirtual() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (ReflectiveOperationException ex) {
			return null;
		}
	}

}
