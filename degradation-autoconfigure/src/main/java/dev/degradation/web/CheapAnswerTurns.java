package dev.degradation.web;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * The turns that answers doing no work for their caller (a shed route's small fallback, a
 * refusal) take while admitted work is served, on both web stacks, so that a flood of them cannot
 * push the served requests back in the line for the CPU.
 *
 * <p>Why: when clients flood a shed route as fast as it answers (a retry storm), the cheap answers
 * saturate the CPU, and every served request then waits behind the flood each time it needs the
 * CPU. An answer waiting for its turn needs no CPU, and a flooding client's next request only
 * comes once it has its answer, so the flood keeps a few requests runnable instead of hundreds.
 * Half the cores, at least one, write such answers at once; the others wait their turn, first
 * come first served, at most {@link #MAX_WAIT_NANOS}, and are then answered anyway (never sooner
 * for a caller's deadline: the deadline is the caller's own header, and a flood that sent one of
 * zero would pass the turns that ration it); past {@link #MAX_WAITING} waiting, an answer goes out
 * at once. Only answers that fit a socket's send buffer take a turn, so that a slow reader cannot
 * hold one, and a turn ends as its answer is sent, before a body nobody will read is let go. The
 * servlet stack waits on its request thread ({@link #enter}); the reactive stack waits without a
 * thread ({@link #enterLater}); both share one set of turns.
 *
 * <p>Turns are taken only while someone waits for the CPU's work: while admitted requests are
 * served or wait for a place, and for {@link #HOLD_NANOS} after the last of them. With no such
 * request there is nothing to protect, and one turn at a time would make a fallback slower than
 * the live routes. Without an {@code overload} section nothing is admitted, so nothing takes
 * turns.
 *
 * <p>On a virtual thread a turn lasts at least {@link #MIN_TURN_NANOS}, the answer sent at once
 * and the turn held the rest of that time: a virtual thread that wakes from its work waits for a
 * carrier behind every runnable request, first in, first out, and slowing a closed-loop flood to
 * what the turns let out is what gives the core its CPU back there. A platform thread gets no
 * minimum: held in a turn, it is one of the server's request threads the core needs. The figures
 * behind these choices are in {@code docs/overload.md}.
 */
public final class CheapAnswerTurns {

	/**
	 * The longest an answer waits for its turn: a closed-loop flood of a few hundred clients waits
	 * less than that for its turns, which is what keeps it parked; an open-loop flood that arrives
	 * faster than the turns come must not wait up to its callers' deadlines instead.
	 */
	static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/**
	 * How long turns are still taken after the last admitted request was seen in flight: longer
	 * than the gaps between the requests of a core route served near its capacity, short enough
	 * that a benchmark of a fallback alone is not measured in turns.
	 */
	static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	/**
	 * The shortest a turn lasts on a virtual thread while someone waits for the CPU's work, so
	 * that half the cores' turns together let out about a third of the CPU's worth of cheap
	 * answers.
	 */
	static final long MIN_TURN_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	/**
	 * The most answers that wait for a turn at once; past it an answer goes out without one. A
	 * closed-loop flood parks at most one answer per flooding connection, seed 000's two hundred
	 * among them. More waiting than that is an open-loop flood, which waiting does not slow: it
	 * would only hold more requests, each with its connection's buffers and, on a virtual thread,
	 * its stack, in a heap a flood of new connections already fills.
	 */
	static final int MAX_WAITING = 256;

	/** How stale {@link #servingSeenAt} may be, a small part of {@link #HOLD_NANOS}. */
	private static final long SEEN_PRECISION_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** {@code Thread::isVirtual}, on a Java that has virtual threads. */
	private static final @Nullable MethodHandle IS_VIRTUAL = isVirtual();

	private final Semaphore permits;

	/**
	 * The answers that wait for a turn without a thread, in the order they came: a turn given
	 * back goes to the first of them that still waits before it goes back to the permits. One whose
	 * wait ended stays until it reaches the head, where it is dropped: removal from the middle
	 * would cost a scan for each, the whole line exactly under a flood.
	 */
	private final Queue<CompletableFuture<Boolean>> waitingLater = new ConcurrentLinkedQueue<>();

	/** How many of {@link #waitingLater} still wait. */
	private final AtomicInteger stillWaitingLater = new AtomicInteger();

	/** How many answers wait for a turn on their thread now, or are about to. */
	private final AtomicInteger waitingOnThreads = new AtomicInteger();

	private final int maxWaiting;

	private final long maxWaitNanos;

	private final long minTurnNanos;

	/** When an admitted request was last seen in flight by a cheap answer; only they write it. */
	private volatile long servingSeenAt;

	CheapAnswerTurns(int permits, long maxWaitNanos) {
		this(permits, maxWaitNanos, 0);
	}

	CheapAnswerTurns(int permits, long maxWaitNanos, long minTurnNanos) {
		this(permits, maxWaitNanos, minTurnNanos, MAX_WAITING);
	}

	CheapAnswerTurns(int permits, long maxWaitNanos, long minTurnNanos, int maxWaiting) {
		this.permits = new Semaphore(permits, true);
		this.maxWaiting = maxWaiting;
		this.maxWaitNanos = maxWaitNanos;
		this.minTurnNanos = minTurnNanos;
		this.servingSeenAt = System.nanoTime() - 2 * HOLD_NANOS;
	}

	/**
	 * Create the turns of this machine: half its cores, at least one.
	 * @return the turns
	 */
	public static CheapAnswerTurns standard() {
		return new CheapAnswerTurns(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), MAX_WAIT_NANOS,
				MIN_TURN_NANOS);
	}

	/**
	 * Create turns with a given number of answers written at once and a longest wait, for tests
	 * that hold a turn themselves.
	 * @param permits how many cheap answers are written at once
	 * @param maxWait the longest an answer waits for its turn
	 * @return the turns
	 */
	public static CheapAnswerTurns of(int permits, Duration maxWait) {
		return new CheapAnswerTurns(permits, maxWait.toNanos());
	}

	/**
	 * Return whether answers take turns now: admitted requests are served now or were within
	 * {@link #HOLD_NANOS}.
	 * @param serving whether admitted requests are in flight or waiting for a place now
	 * @return whether a cheap answer is to wait for its turn
	 */
	public boolean taken(boolean serving) {
		long now = System.nanoTime();
		if (serving) {
			// Written at most once a millisecond: under a flood every cheap answer comes here, and
			// a write each would bounce the field's cache line between the cores.
			if (now - this.servingSeenAt > SEEN_PRECISION_NANOS) {
				this.servingSeenAt = now;
			}
			return true;
		}
		return now - this.servingSeenAt <= HOLD_NANOS;
	}

	/**
	 * Wait for a turn on this thread, at most the longest wait; the caller asks
	 * {@link #taken(boolean)} first whether answers take turns now.
	 * @return whether a turn was taken, to be given back with {@link #leave(long)}
	 */
	public boolean enter() {
		try {
			if (this.waitingOnThreads.incrementAndGet() + this.stillWaitingLater.get() > this.maxWaiting) {
				return false;
			}
			return this.permits.tryAcquire(this.maxWaitNanos, TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		finally {
			this.waitingOnThreads.decrementAndGet();
		}
	}

	/**
	 * Wait for a turn without a thread: the future completes {@code true} when a turn is handed to
	 * this answer, {@code false} when the wait ran out (the answer is written anyway, without a
	 * turn); either wins, never both. It completes on the thread that gave a turn back, or on the
	 * JDK's timer thread: the caller moves on from there. Cancelling it gives up the wait; a turn
	 * handed to it as it was cancelled goes to the next answer.
	 * @return whether a turn was taken, to be given back with {@link #leave(long)}
	 */
	public CompletableFuture<Boolean> enterLater() {
		if (this.stillWaitingLater.get() == 0 && this.permits.tryAcquire()) {
			return CompletableFuture.completedFuture(true);
		}
		if (this.stillWaitingLater.incrementAndGet() + this.waitingOnThreads.get() > this.maxWaiting) {
			this.stillWaitingLater.decrementAndGet();
			return CompletableFuture.completedFuture(false);
		}
		CompletableFuture<Boolean> turn = new CompletableFuture<>();
		turn.whenComplete((taken, failure) -> this.stillWaitingLater.decrementAndGet());
		this.waitingLater.add(turn);
		// A turn given back between the try above and the line's add would wait for the next one.
		if (this.permits.tryAcquire() && !turn.complete(true)) {
			this.permits.release();
		}
		if (!turn.isDone()) {
			// Not completeOnTimeout: it cancels its timer when the turn comes first, and the JDK's
			// timer removes a cancelled task under a lock, which an event loop may then wait for
			// (BlockHound saw it park). The timer fires instead, on its own thread rather than
			// handing a task to the common pool, and finds the turn taken.
			CompletableFuture.delayedExecutor(this.maxWaitNanos, TimeUnit.NANOSECONDS, Runnable::run).execute(() -> turn.complete(false));
		}
		return turn;
	}

	/**
	 * Return how many answers are waiting for their turn now.
	 * @return an estimate
	 */
	public int waiting() {
		return this.waitingOnThreads.get() + this.stillWaitingLater.get();
	}

	/**
	 * Give a turn back, once it has lasted the shortest turn: to the first answer that waits for
	 * one without a thread, or else to the permits.
	 * @param since when the turn was taken, by {@link System#nanoTime()}
	 */
	public void leave(long since) {
		if (this.minTurnNanos > 0 && onVirtualThread()) {
			long rest;
			while ((rest = since + this.minTurnNanos - System.nanoTime()) > 0) {
				LockSupport.parkNanos(rest);
			}
		}
		CompletableFuture<Boolean> next;
		while ((next = this.waitingLater.poll()) != null) {
			if (next.complete(true)) {
				return;
			}
		}
		this.permits.release();
	}

	/**
	 * Whether the current thread is a virtual one (never on Java 17, which has none).
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
