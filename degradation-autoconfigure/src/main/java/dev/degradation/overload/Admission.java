package dev.degradation.overload;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Overload;

/**
 * Decides, for each request, whether it is admitted now, answered with its fallback, made to wait
 * a bounded time, or refused. At most {@link #limit()} requests are in flight at once. Requests of
 * degradable routes are ranked by their tier, lowest priority first: rank {@code r} of {@code n}
 * is admitted only while fewer than {@code limit * (r + 1) / (n + 1)} requests are in flight, so
 * as the service saturates the lowest tiers are shed first and the capacity goes to the core.
 * A core request (no route in the manifest) takes any free place; without one it waits at most
 * {@code max_queue_ms}, never past its caller's deadline, and is then refused.
 *
 * <p>The limit is concurrency-limits' {@link VegasLimit} when adaptive: it follows the queueing
 * delay it sees in the latency of admitted requests, so it settles near what the service can do
 * instead of drifting up with the offered load. Thread-safe; the admission path takes no lock
 * unless a core request has to wait.
 */
public final class Admission {

	/** The most requests in flight an adaptive limit may reach. */
	static final int MAX_ADAPTIVE_LIMIT = 1000;

	/**
	 * Where an adaptive limit starts: Vegas' own default. Lower, a healthy service that a burst of
	 * a few dozen concurrent callers reaches before the limit has grown would refuse some of them.
	 */
	static final int INITIAL_ADAPTIVE_LIMIT = 20;

	private final Limit limit;

	private final int ranks;

	private final long maxQueueNanos;

	private final LongSupplier nanoTime;

	private final AtomicInteger inflight = new AtomicInteger();

	private final AtomicInteger waiting = new AtomicInteger();

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition released = this.lock.newCondition();

	private final LongAdder admitted = new LongAdder();

	private final LongAdder[] shed;

	private final LongAdder refused = new LongAdder();

	private final LongAdder refusedForDeadline = new LongAdder();

	private final LongAdder waits = new LongAdder();

	private final LongAdder waitedNanos = new LongAdder();

	/**
	 * Create the admission of a manifest's {@code overload} section.
	 * @param overload the section
	 * @param ranks how many degradable ranks there are (the number of distinct tier priorities)
	 * @param nanoTime the clock of latencies and waits, {@code System::nanoTime} outside tests
	 */
	public Admission(Overload overload, int ranks, LongSupplier nanoTime) {
		this(limit(overload), ranks, overload.maxQueue(), nanoTime);
	}

	Admission(Limit limit, int ranks, Duration maxQueue, LongSupplier nanoTime) {
		this.limit = limit;
		this.ranks = ranks;
		this.maxQueueNanos = maxQueue.toNanos();
		this.nanoTime = nanoTime;
		this.shed = new LongAdder[ranks];
		for (int rank = 0; rank < ranks; rank++) {
			this.shed[rank] = new LongAdder();
		}
	}

	private static Limit limit(Overload overload) {
		Integer fixed = overload.fixedLimit();
		if (fixed != null) {
			return FixedLimit.of(fixed);
		}
		return VegasLimit.newBuilder()
			.initialLimit(INITIAL_ADAPTIVE_LIMIT)
			.maxConcurrency(MAX_ADAPTIVE_LIMIT)
			.build();
	}

	/**
	 * Return the rank of core requests: above every degradable rank.
	 * @return the rank
	 */
	public int coreRank() {
		return this.ranks;
	}

	/**
	 * Try to admit a request without waiting.
	 * @param rank the request's rank: {@code 0} for the lowest tier, {@link #coreRank()} for a core
	 * request
	 * @param deadlineNanos how long its caller still waits, or a negative number when it did not
	 * say
	 * @return the decision
	 */
	public Decision decide(int rank, long deadlineNanos) {
		if (deadlineNanos == 0) {
			this.refusedForDeadline.increment();
			return Decision.REFUSED_DEADLINE;
		}
		int limit = this.limit.getLimit();
		if (rank < this.ranks) {
			int threshold = Math.max(1, (int) ((long) limit * (rank + 1) / (this.ranks + 1)));
			if (tryAcquire(threshold)) {
				this.admitted.increment();
				return Decision.ADMITTED;
			}
			this.shed[rank].increment();
			return Decision.SHED;
		}
		if (tryAcquire(limit)) {
			this.admitted.increment();
			return Decision.ADMITTED;
		}
		if (this.maxQueueNanos == 0) {
			this.refused.increment();
			return Decision.REFUSED;
		}
		return Decision.WAIT;
	}

	/**
	 * Return how long a core request that got {@link Decision#WAIT} may wait.
	 * @param deadlineNanos how long its caller still waits, or a negative number when it did not
	 * say
	 * @return the bound of the wait, in nanoseconds
	 */
	public long waitBound(long deadlineNanos) {
		return (deadlineNanos < 0) ? this.maxQueueNanos : Math.min(this.maxQueueNanos, deadlineNanos);
	}

	/**
	 * Wait for a place for a core request, at most the given time.
	 * @param waitNanos the bound of the wait, from {@link #waitBound(long)}
	 * @return whether the request was admitted; when not, it is counted as refused
	 */
	public boolean await(long waitNanos) {
		long start = this.nanoTime.getAsLong();
		long end = start + waitNanos;
		this.waiting.incrementAndGet();
		this.lock.lock();
		try {
			while (true) {
				if (tryAcquire(this.limit.getLimit())) {
					this.admitted.increment();
					return true;
				}
				long left = end - this.nanoTime.getAsLong();
				if (left <= 0) {
					this.refused.increment();
					return false;
				}
				this.released.awaitNanos(left);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.refused.increment();
			return false;
		}
		finally {
			this.lock.unlock();
			this.waiting.decrementAndGet();
			this.waits.increment();
			this.waitedNanos.add(this.nanoTime.getAsLong() - start);
		}
	}

	/**
	 * Return how many core requests waited for a place since start.
	 * @return the count
	 */
	public long waits() {
		return this.waits.sum();
	}

	/**
	 * Return how long core requests waited for a place in all, since start.
	 * @return the total, in nanoseconds
	 */
	public long waitedNanos() {
		return this.waitedNanos.sum();
	}

	/**
	 * Start timing an admitted request; {@link Permit#release(boolean)} frees its place.
	 * @return the permit
	 */
	public Permit permit() {
		return new Permit(this.nanoTime.getAsLong(), this.inflight.get());
	}

	private boolean tryAcquire(int bound) {
		while (true) {
			int current = this.inflight.get();
			if (current >= bound) {
				return false;
			}
			if (this.inflight.compareAndSet(current, current + 1)) {
				return true;
			}
		}
	}

	private void release(long start, int inflightAtStart, boolean dropped) {
		long now = this.nanoTime.getAsLong();
		this.limit.onSample(start, now - start, inflightAtStart, dropped);
		this.inflight.decrementAndGet();
		if (this.waiting.get() > 0) {
			this.lock.lock();
			try {
				this.released.signal();
			}
			finally {
				this.lock.unlock();
			}
		}
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
		return this.waiting.get();
	}

	/**
	 * Return how many requests were admitted since start.
	 * @return the count
	 */
	public long admitted() {
		return this.admitted.sum();
	}

	/**
	 * Return how many requests of a rank were answered with their fallback since start.
	 * @param rank the rank
	 * @return the count
	 */
	public long shed(int rank) {
		return this.shed[rank].sum();
	}

	/**
	 * Return how many requests of every rank were answered with their fallback since start.
	 * @return the count
	 */
	public long shed() {
		long total = 0;
		for (LongAdder adder : this.shed) {
			total += adder.sum();
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
	 * Return how many requests were refused at once because their caller's deadline had passed.
	 * @return the count since start
	 */
	public long refusedForDeadline() {
		return this.refusedForDeadline.sum();
	}

	/**
	 * What admission decided for a request.
	 */
	public enum Decision {

		/** Admitted: take a {@link Admission#permit()} and release it when the request ends. */
		ADMITTED,

		/** A degradable request over its tier's share: answer its fallback. */
		SHED,

		/** A core request with no place free: wait at most {@link Admission#waitBound(long)}. */
		WAIT,

		/** A core request with no place free and no queue: answer 503. */
		REFUSED,

		/** The caller's deadline has passed: answer 503 at once. */
		REFUSED_DEADLINE

	}

	/**
	 * The place of one admitted request, released exactly once when it ends.
	 */
	public final class Permit {

		private final long start;

		private final int inflightAtStart;

		private boolean released;

		Permit(long start, int inflightAtStart) {
			this.start = start;
			this.inflightAtStart = inflightAtStart;
		}

		/**
		 * Free the place and give the limit the request's latency.
		 * @param dropped whether the request failed in a way that says the service is overloaded
		 * (a timeout), which lowers an adaptive limit
		 */
		public synchronized void release(boolean dropped) {
			if (!this.released) {
				this.released = true;
				Admission.this.release(this.start, this.inflightAtStart, dropped);
			}
		}

	}

	@Override
	public String toString() {
		return "Admission[limit=" + limit() + ", inflight=" + inflight() + ", waiting=" + waiting() + "]";
	}

	/**
	 * The remaining time a caller's deadline header allows, bounded so that a hostile header (a
	 * century) is never trusted beyond {@code max}.
	 * @param header the header's value in milliseconds, or {@code null}
	 * @param max the longest deadline trusted
	 * @return the remaining time in nanoseconds: {@code 0} when it has passed, negative when the
	 * header is absent or unreadable (no deadline)
	 */
	public static long deadlineNanos(@Nullable String header, Duration max) {
		if (header == null || header.isEmpty() || header.length() > 19) {
			return -1;
		}
		long millis;
		try {
			millis = Long.parseLong(header.trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
		if (millis <= 0) {
			return 0;
		}
		return TimeUnit.MILLISECONDS.toNanos(Math.min(millis, max.toMillis()));
	}

}
