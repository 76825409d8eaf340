package dev.degradation.overload;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.FixedLimit;
import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Overload;

/**
 * Admission under load in concurrency-limits' shape: a {@link Limit} (the library's algorithm,
 * {@link QueueDelayLimit adaptive} by default), one partition per degradable rank, and a
 * {@link Limiter.Listener} for every admitted request, which reports how it ended:
 * {@link Limiter.Listener#onSuccess() success} (its latency is a sample of the limit),
 * {@link Limiter.Listener#onIgnore() ignore} (an error, a caller that left, the refusal fallback:
 * no sample) or {@link Limiter.Listener#onDropped() dropped} (the service itself was too slow:
 * the limit comes down). {@link Admitted#ended} is the one rule by which a request's end is judged:
 * nothing its caller chose (a deadline, a slow body, an error of its own making) is a sample.
 *
 * <p>Partitions are ceilings, not guarantees: the partition of rank {@code r} of {@code n}
 * degradable ranks admits a request only while fewer than {@code limit * (r + 1) / (n + 1)}
 * requests of any rank are in flight, so as the service saturates the lowest tiers are shed first
 * and the rest of the limit stays for the core. A core request (a route outside the manifest)
 * takes any free place.
 *
 * <p>{@link #decide(int, long)} never parks a thread, so that a reactive stack can admit on its
 * event loop; waiting for a place is the separate, optional {@link #await(long)} (a parked thread)
 * or {@link #awaitWithoutThread()} (a future). Not a {@code Limiter} itself: a limiter admits at
 * once or not at all, where admission also sheds a degradable request and lets a core one wait,
 * so its one entry point is {@link #decide(int, long)}. Thread-safe; the decision takes no lock.
 * The waiting itself (the lock, its condition, the queue of futures, the hand-off of a freed place)
 * is {@link AdmissionWaiters}'s, which a released place asks only when someone waits.
 */
public final class Admission {

	private final Limit limit;

	private final Partition[] partitions;

	private final long maxQueueNanos;

	private final LongSupplier nanoTime;

	private final AtomicInteger inflight = new AtomicInteger();

	private final LongAdder admitted = new LongAdder();

	private final LongAdder succeeded = new LongAdder();

	private final LongAdder ignored = new LongAdder();

	private final LongAdder dropped = new LongAdder();

	private final LongAdder refused = new LongAdder();

	private final LongAdder refusedForDeadline = new LongAdder();

	private final LongAdder saturations = new LongAdder();

	private final AdmissionWaiters waiters;

	/**
	 * Create the admission of a manifest's {@code overload} section.
	 * @param overload the section
	 * @param ranks how many degradable ranks there are (the number of distinct tier priorities)
	 * @param nanoTime the clock of latencies and waits, {@code System::nanoTime} outside tests
	 */
	public Admission(Overload overload, int ranks, LongSupplier nanoTime) {
		this(limit(overload), ranks, overload.maxQueue(), nanoTime);
	}

	/**
	 * Create an admission with a limit of its own.
	 * @param limit the concurrency limit
	 * @param ranks how many degradable ranks there are
	 * @param maxQueue the longest a core request may wait for a place
	 * @param nanoTime the clock of latencies and waits
	 */
	public Admission(Limit limit, int ranks, Duration maxQueue, LongSupplier nanoTime) {
		this.limit = limit;
		this.maxQueueNanos = maxQueue.toNanos();
		this.nanoTime = nanoTime;
		this.partitions = new Partition[ranks + 1];
		for (int rank = 0; rank <= ranks; rank++) {
			this.partitions[rank] = new Partition(rank, ranks);
		}
		this.waiters = new AdmissionWaiters(this, nanoTime, this.refused);
	}

	private static Limit limit(Overload overload) {
		Integer fixed = overload.fixedLimit();
		return (fixed != null) ? FixedLimit.of(fixed) : new QueueDelayLimit();
	}

	/**
	 * Return the rank of core requests: above every degradable rank.
	 * @return the rank
	 */
	public int coreRank() {
		return this.partitions.length - 1;
	}

	/**
	 * Decide at once, without parking the thread, what becomes of a request.
	 * @param rank the request's rank: {@code 0} for the lowest tier, {@link #coreRank()} for a core
	 * request (a larger rank counts as core)
	 * @param deadlineNanos how long its caller still waits, as {@link Deadline#remainingNanos}
	 * reads it
	 * @return an {@link Admitted} request that must report how it ended exactly once, or why it
	 * was not admitted
	 */
	public Decision decide(int rank, long deadlineNanos) {
		return decide(rank, true, deadlineNanos);
	}

	/**
	 * Decide at once, without parking the thread, what becomes of a request that may have no
	 * fallback: a core route's request whose caller passed a lower priority
	 * ({@link PassedPriority}) is ranked below the core, and over its partition it is refused,
	 * counted as {@link #refused() refused}, and never waits (a place beyond its partition is not
	 * its to wait for).
	 * @param rank the request's rank
	 * @param fallback whether the request's route has a fallback to answer over its partition
	 * @param deadlineNanos how long its caller still waits, as {@link Deadline#remainingNanos}
	 * reads it
	 * @return an {@link Admitted} request that must report how it ended exactly once, or why it
	 * was not admitted
	 */
	public Decision decide(int rank, boolean fallback, long deadlineNanos) {
		if (deadlineNanos == Deadline.PASSED) {
			this.refusedForDeadline.increment();
			return NotAdmitted.DEADLINE_PASSED;
		}
		Partition partition = this.partitions[Math.min(Math.max(rank, 0), coreRank())];
		int limit = this.limit.getLimit();
		Admitted admitted = tryAdmit(partition.ceiling(limit));
		if (admitted != null) {
			return admitted;
		}
		// Only a request that found every place taken is evidence of saturation: one turned away by
		// its tier's share, or by a priority its caller lowered, while places are free is not, so
		// that no caller's own header can move the shed level for everyone.
		if (this.inflight.get() >= limit) {
			this.saturations.increment();
		}
		if (partition.degradable()) {
			if (!fallback) {
				this.refused.increment();
				return NotAdmitted.REFUSED;
			}
			partition.shed.increment();
			return NotAdmitted.SHED;
		}
		if (this.maxQueueNanos == 0) {
			this.refused.increment();
			return NotAdmitted.REFUSED;
		}
		return NotAdmitted.WAIT;
	}

	/**
	 * Return how long a core request that was told to {@link NotAdmitted#WAIT} may wait.
	 * @param deadlineNanos how long its caller still waits, or {@link Deadline#NONE}
	 * @return the bound of the wait, in nanoseconds
	 */
	public long waitBound(long deadlineNanos) {
		return (deadlineNanos == Deadline.NONE) ? this.maxQueueNanos : Math.min(this.maxQueueNanos, deadlineNanos);
	}

	/**
	 * Park the calling thread until a place frees for a core request, at most the given time:
	 * the optional second step after {@link NotAdmitted#WAIT}, for a stack whose request threads
	 * may wait.
	 * @param waitNanos the bound of the wait, from {@link #waitBound(long)}
	 * @return the admitted request, or {@code null} when no place freed in time (counted as
	 * refused)
	 */
	public @Nullable Admitted await(long waitNanos) {
		return this.waiters.await(waitNanos);
	}

	/**
	 * Wait for a place for a core request without parking a thread: the optional second step
	 * after {@link NotAdmitted#WAIT} for a stack whose threads must not wait (an event loop). The
	 * future is completed with the admitted request when a place frees, first come first; the
	 * caller bounds the wait by {@link #waitBound(long)} with a timer and cancels the future when
	 * it expires, which counts the request as refused. A place handed to a future cancelled at
	 * the same moment is given back.
	 * @return the future admission
	 */
	public CompletableFuture<Admitted> awaitWithoutThread() {
		return this.waiters.awaitWithoutThread();
	}

	/** Admit a request if fewer than {@code ceiling} are in flight; for the waiters too. */
	@Nullable Admitted tryAdmit(int ceiling) {
		while (true) {
			int current = this.inflight.get();
			if (current >= ceiling) {
				return null;
			}
			if (this.inflight.compareAndSet(current, current + 1)) {
				this.admitted.increment();
				return new Admitted(this.nanoTime.getAsLong(), current + 1);
			}
		}
	}

	private void release(Admitted request, @Nullable Boolean dropped, long serviceNanos, @Nullable String kind) {
		if (dropped != null) {
			if (this.limit instanceof QueueDelayLimit queueDelay) {
				queueDelay.onSample(kind, request.start, Math.max(1, serviceNanos), request.inflightAtStart,
						dropped);
			}
			else {
				this.limit.onSample(request.start, Math.max(1, serviceNanos), request.inflightAtStart, dropped);
			}
			(dropped ? this.dropped : this.succeeded).increment();
		}
		else {
			this.ignored.increment();
		}
		this.inflight.decrementAndGet();
		this.waiters.placeFreed();
	}

	/**
	 * Take back a place a waiter was handed as it timed out or was cancelled: it was never
	 * admitted. No waiter is told, as before the place was handed.
	 */
	void giveBack() {
		this.admitted.decrement();
		this.inflight.decrementAndGet();
	}

	/**
	 * Return the algorithm that sets the limit: {@link QueueDelayLimit} unless the manifest fixed
	 * the limit.
	 * @return the algorithm
	 */
	public Limit algorithm() {
		return this.limit;
	}

	/**
	 * Return the concurrency limit now.
	 * @return the limit
	 */
	public int limit() {
		return this.limit.getLimit();
	}

	/**
	 * Return how many requests are in flight.
	 * @return the count
	 */
	public int inflight() {
		return this.inflight.get();
	}

	/**
	 * Return how many core requests are waiting for a place.
	 * @return the count
	 */
	public int waiting() {
		return this.waiters.waiting();
	}

	/**
	 * Return how many requests were admitted since start.
	 * @return the count
	 */
	public long admitted() {
		return this.admitted.sum();
	}

	/**
	 * Return how many admitted requests ended as a success, a sample of the limit.
	 * @return the count since start
	 */
	public long succeeded() {
		return this.succeeded.sum();
	}

	/**
	 * Return how many admitted requests ended in a way the limit ignores: an error (a 4xx of the
	 * request's own making too), a caller that left, the refusal fallback, an end after the
	 * caller's own deadline.
	 * @return the count since start
	 */
	public long ignored() {
		return this.ignored.sum();
	}

	/**
	 * Return how many admitted requests were dropped: the service worked on them longer than its
	 * own bound of a long request, or gave them up itself.
	 * @return the count since start
	 */
	public long dropped() {
		return this.dropped.sum();
	}

	/**
	 * Return how many requests of a rank were answered with their fallback since start.
	 * @param rank the rank
	 * @return the count
	 */
	public long shed(int rank) {
		return (rank >= 0 && rank < coreRank()) ? this.partitions[rank].shed.sum() : 0;
	}

	/**
	 * Return how many requests of every rank were answered with their fallback since start.
	 * @return the count
	 */
	public long shed() {
		long total = 0;
		for (Partition partition : this.partitions) {
			total += partition.shed.sum();
		}
		return total;
	}

	/**
	 * Return how many core requests were refused because no place freed up in time.
	 * @return the count since start
	 */
	public long refused() {
		return this.refused.sum();
	}

	/**
	 * Return how many requests found every place taken since start, whatever became of them (shed,
	 * refused, or waiting): the evidence of saturation. A request turned away for a reason of its
	 * own (a passed deadline, its tier's share or a priority its caller lowered while places were
	 * free) is not counted.
	 * @return the count since start
	 */
	public long saturations() {
		return this.saturations.sum();
	}

	/**
	 * Whether admission serves requests now: one is in flight, or one waits for a place.
	 * @return whether it serves any
	 */
	public boolean serving() {
		return this.inflight.get() > 0 || this.waiters.waiting() > 0;
	}

	/**
	 * Whether admission is saturated now: every place is taken, or a request waits for one.
	 * @return whether it is saturated
	 */
	public boolean saturated() {
		return this.waiters.waiting() > 0 || this.inflight.get() >= this.limit.getLimit();
	}

	/**
	 * Return how many requests were refused at once because their caller's deadline had passed.
	 * @return the count since start
	 */
	public long refusedForDeadline() {
		return this.refusedForDeadline.sum();
	}

	/**
	 * Return how many core requests waited for a place since start.
	 * @return the count
	 */
	public long waits() {
		return this.waiters.waits();
	}

	/**
	 * Return how long core requests waited for a place in all, since start.
	 * @return the total, in nanoseconds
	 */
	public long waitedNanos() {
		return this.waiters.waitedNanos();
	}

	@Override
	public String toString() {
		return "Admission[limit=" + limit() + ", inflight=" + inflight() + ", waiting=" + waiting() + "]";
	}

	/**
	 * What admission decided for a request: {@link Admitted}, or why not.
	 */
	public sealed interface Decision permits Admitted, NotAdmitted {

	}

	/**
	 * Why a request was not admitted at once.
	 */
	public enum NotAdmitted implements Decision {

		/** A degradable request over its tier's partition: answer its fallback. */
		SHED,

		/**
		 * A core request with no place free, under a queue bound: {@link Admission#await(long)}
		 * at most {@link Admission#waitBound(long)}, or refuse it.
		 */
		WAIT,

		/** A core request with no place free and no queue: refuse it. */
		REFUSED,

		/** The caller's deadline has passed: refuse it at once, whatever the room. */
		DEADLINE_PASSED

	}

	/**
	 * An admitted request: its place is held until it reports, exactly once, how it ended; later
	 * reports change nothing.
	 */
	public final class Admitted implements Decision, Limiter.Listener {

		private static final AtomicIntegerFieldUpdater<Admitted> ENDED = AtomicIntegerFieldUpdater
			.newUpdater(Admitted.class, "ended");

		private final long start;

		private final int inflightAtStart;

		private volatile int ended;

		/**
		 * How long the request waited for its caller's body after its admission: the caller's
		 * time, not the service's. Written by the one reader of the body at a time.
		 */
		private volatile long bodyWaitNanos;

		/**
		 * How long the request waited for its caller to take its answer: the caller's time too.
		 * Written by the one writer of the answer at a time.
		 */
		private volatile long answerWaitNanos;

		Admitted(long start, int inflightAtStart) {
			this.start = start;
			this.inflightAtStart = inflightAtStart;
		}

		/**
		 * Return how long ago the request was admitted, by admission's clock.
		 * @return the time in nanoseconds
		 */
		public long elapsedNanos() {
			return Admission.this.nanoTime.getAsLong() - this.start;
		}

		/**
		 * Return how long the service worked on the request since its admission: the time since,
		 * less the time it waited for its caller's body ({@link #waitedForBody(long)}) and for
		 * its caller to take its answer ({@link #waitedForCaller(long)}).
		 * @return the time in nanoseconds
		 */
		public long serviceNanos() {
			return elapsedNanos() - this.bodyWaitNanos - this.answerWaitNanos;
		}

		/**
		 * Record time the request spent waiting for its caller to send more of its body: a body
		 * that arrives slowly is the caller's slowness, so it is no part of the latency sample.
		 * @param nanos the time waited, in nanoseconds
		 */
		public void waitedForBody(long nanos) {
			if (nanos > 0) {
				this.bodyWaitNanos += nanos;
			}
		}

		/**
		 * Record time the request spent waiting for its caller to take its answer (a write that
		 * waits for room in the connection): a caller that reads slowly is the caller's slowness,
		 * so it is no part of the latency sample either.
		 * @param nanos the time waited, in nanoseconds
		 */
		public void waitedForCaller(long nanos) {
			if (nanos > 0) {
				this.answerWaitNanos += nanos;
			}
		}

		/**
		 * Report how the request ended by the one rule of what the limit may learn from (only the
		 * service's own behaviour): a request that was not served (an error, a 4xx of its own
		 * making, a caller that left, a fallback) is ignored; a served one on which the service
		 * worked longer than {@code longRequestNanos} (a bound of the service's, never the
		 * caller's) is dropped, whatever its caller's deadline; one that ended after its caller's
		 * deadline is ignored, since its caller chose that bound; any other is a success whose
		 * latency is the time the service worked on it.
		 * @param served whether the application served the request on its own
		 * @param deadlineNanos the caller's deadline when the request arrived, as
		 * {@link Deadline#remainingNanos} reads it
		 * @param longRequestNanos how long a request may take before the service itself was slow
		 * @param kind the pattern of the route that served it, by which its latency is judged
		 * against the no-load latency of its own kind and not of the fastest route the service
		 * has, or {@code null} when none is known
		 */
		public void ended(boolean served, long deadlineNanos, long longRequestNanos, @Nullable String kind) {
			if (!served) {
				onIgnore();
				return;
			}
			long elapsed = elapsedNanos();
			long service = elapsed - this.bodyWaitNanos - this.answerWaitNanos;
			if (service > longRequestNanos) {
				end(Boolean.TRUE, service, kind);
			}
			else if (deadlineNanos > 0 && elapsed > deadlineNanos) {
				onIgnore();
			}
			else {
				end(Boolean.FALSE, service, kind);
			}
		}

		/** The request was served: the time the service worked on it is a sample of the limit. */
		@Override
		public void onSuccess() {
			end(Boolean.FALSE, serviceNanos(), null);
		}

		/** The request ended in a way that says nothing of the service's capacity. */
		@Override
		public void onIgnore() {
			end(null, 0, null);
		}

		/** The service gave the request up itself (its own time-out): the limit counts it as a loss. */
		@Override
		public void onDropped() {
			end(Boolean.TRUE, serviceNanos(), null);
		}

		private void end(@Nullable Boolean dropped, long serviceNanos, @Nullable String kind) {
			if (ENDED.compareAndSet(this, 0, 1)) {
				release(this, dropped, serviceNanos, kind);
			}
		}

	}

}
