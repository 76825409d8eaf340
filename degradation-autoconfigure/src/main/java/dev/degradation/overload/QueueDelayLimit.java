package dev.degradation.overload;

import java.util.concurrent.TimeUnit;

import com.netflix.concurrency.limits.limit.AbstractLimit;

/**
 * The adaptive concurrency limit: as many requests at once as the service takes without a standing
 * queue, judged by the time requests wait inside it rather than by a ratio of latencies, so that
 * it holds latency near the service time at a limit of 1 as well as at 100, and never refuses a
 * service that is busy but not queueing.
 *
 * <p>Samples are judged in intervals, as CoDel judges a queue: an interval lasts at least
 * {@link #INTERVAL_NANOS} and ends with the first sample after that. Its evidence is the shortest
 * latency of its samples less the no-load latency (the shortest latency of the last two epochs of
 * {@link #EPOCH_NANOS}): that delay is what the luckiest request of the interval still waited, so
 * it is a standing queue and not a burst or a pause that some requests met. A delay above the
 * tolerance (the larger of {@link #TARGET_NANOS} and half the no-load latency) brings the limit
 * down in proportion, at most by half at once; a delay within it lets the limit grow, faster the
 * less it waited. Only an interval that used the limit (at least half of it in flight) is judged:
 * below that, a delay is not the limit's doing. A dropped request halves the limit.
 * The interval after a change is not judged: requests admitted as a limit grows find the queue
 * empty, and requests admitted before it shrinks still wait behind the old limit's.
 *
 * <p>Why not Vegas, which this replaced: Vegas estimates the queue as {@code limit * (1 - minRtt /
 * rtt)} and keeps it between alpha and beta requests. A count of queued requests is too coarse for
 * a service that does one thing at a time (each queued request costs a whole service time, and
 * alpha 2 keeps two of them waiting: admitted requests took 4 to 5 service times), and too fine for
 * a service at its CPU's limit (a ratio of latencies of a request that takes microseconds reads as
 * a long queue, and the limit came down below the callers of a healthy service). A delay in time,
 * with a floor, is the same judgement at every size: a wait of a few milliseconds is never worth a
 * refusal, and a wait of a whole service time always says there is a queue.
 *
 * <p>Thread-safe: {@link AbstractLimit} calls {@link #_update} under its lock.
 */
public final class QueueDelayLimit extends AbstractLimit {

	/** The most requests in flight the limit may reach. */
	static final int MAX_LIMIT = 1000;

	/**
	 * Where the limit starts: high enough that a healthy service reached by a burst of a few dozen
	 * callers before the first interval ends refuses none of them.
	 */
	static final int INITIAL_LIMIT = 20;

	/** The least time over which samples are judged together. */
	static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/**
	 * The wait inside the service that is never reason enough to lower the limit, whatever its
	 * service time: refusing costs a caller more than waiting this long.
	 */
	static final long TARGET_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	/**
	 * How long the shortest latency stands for the no-load one: it is the shortest of the current
	 * epoch and the one before, so a service whose latency rises for good is measured anew within
	 * two epochs.
	 */
	static final long EPOCH_NANOS = TimeUnit.SECONDS.toNanos(5);

	private long intervalStart = Long.MIN_VALUE;

	private long intervalMinRtt = Long.MAX_VALUE;

	private int intervalMaxInflight;

	private boolean intervalDropped;

	/** Whether the limit changed at the end of the last interval, whose effect is not yet seen. */
	private boolean settling;

	private long epochStart = Long.MIN_VALUE;

	private long epochMinRtt = Long.MAX_VALUE;

	private long previousEpochMinRtt = Long.MAX_VALUE;

	private double estimate;

	/**
	 * The no-load latency as the service shows it now, when that is above the epochs' shortest:
	 * the latency at which cutting the limit stopped shortening the wait. {@link Long#MAX_VALUE}
	 * when the epochs' shortest stands.
	 */
	private long waitNotOursFloor = Long.MAX_VALUE;

	/** The limit at the last cut that shortened the wait, or 0 outside a run of cuts. */
	private int cutLimit;

	/** The delay that cut answered. */
	private long cutDelay;

	/** When the limit was last cut: only requests admitted after it show what the cut did. */
	private long lastCutNanos = Long.MIN_VALUE;

	/** The shortest latency of the interval among requests admitted after the last cut. */
	private long intervalMinRttSinceCut = Long.MAX_VALUE;

	/** Create a limit at {@link #INITIAL_LIMIT}. */
	public QueueDelayLimit() {
		this(INITIAL_LIMIT);
	}

	/**
	 * Create a limit that starts elsewhere.
	 * @param initialLimit where the limit starts, at least 1
	 */
	public QueueDelayLimit(int initialLimit) {
		super(Math.max(1, initialLimit));
		this.estimate = getLimit();
	}

	/**
	 * Return the latency this limit takes for the service's own, without a queue.
	 * @return the time in nanoseconds, or {@link Long#MAX_VALUE} before the first sample
	 */
	synchronized long noLoadNanos() {
		long shortest = shortestNanos();
		return (this.waitNotOursFloor == Long.MAX_VALUE) ? shortest : Math.max(shortest, this.waitNotOursFloor);
	}

	private long shortestNanos() {
		return Math.min(this.epochMinRtt, this.previousEpochMinRtt);
	}

	@Override
	protected int _update(long startTime, long rtt, int inflight, boolean didDrop) {
		long latency = Math.max(1, rtt);
		long end = startTime + latency;
		if (this.intervalStart == Long.MIN_VALUE) {
			this.intervalStart = end;
			this.epochStart = end;
		}
		if (end - this.epochStart >= EPOCH_NANOS) {
			this.previousEpochMinRtt = this.epochMinRtt;
			this.epochMinRtt = Long.MAX_VALUE;
			this.epochStart = end;
		}
		this.epochMinRtt = Math.min(this.epochMinRtt, latency);
		this.intervalMinRtt = Math.min(this.intervalMinRtt, latency);
		if (startTime - this.lastCutNanos >= 0) {
			this.intervalMinRttSinceCut = Math.min(this.intervalMinRttSinceCut, latency);
		}
		this.intervalMaxInflight = Math.max(this.intervalMaxInflight, inflight);
		this.intervalDropped |= didDrop;
		if (end - this.intervalStart < INTERVAL_NANOS) {
			return getLimit();
		}
		int before = getLimit();
		int limit = (this.settling && !this.intervalDropped) ? before : judge(end);
		this.settling = limit != before;
		this.intervalStart = end;
		this.intervalMinRtt = Long.MAX_VALUE;
		this.intervalMinRttSinceCut = Long.MAX_VALUE;
		this.intervalMaxInflight = 0;
		this.intervalDropped = false;
		return limit;
	}

	private int judge(long now) {
		if (this.intervalDropped) {
			this.estimate = this.estimate / 2;
			return settled();
		}
		if (this.intervalMaxInflight * 2 < getLimit()) {
			// Most of the limit was not used: a delay is not the limit's doing (a service whose
			// latency varies, a bottleneck elsewhere), and the interval says nothing of what more
			// would do.
			return getLimit();
		}
		long tolerance = Math.max(TARGET_NANOS, shortestNanos() / 2);
		// A wait the limit did not make follows the service's latency down, and is gone once the
		// service answers within the tolerance of its epochs' shortest again.
		if (this.intervalMinRtt - shortestNanos() <= tolerance) {
			this.waitNotOursFloor = Long.MAX_VALUE;
		}
		else if (this.waitNotOursFloor != Long.MAX_VALUE) {
			this.waitNotOursFloor = Math.min(this.waitNotOursFloor, this.intervalMinRtt);
		}
		long noLoad = noLoadNanos();
		long delay = this.intervalMinRtt - noLoad;
		if (delay > tolerance) {
			if (this.cutLimit > 0 && this.intervalMinRttSinceCut != Long.MAX_VALUE) {
				long delaySinceCut = this.intervalMinRttSinceCut - noLoad;
				if (delaySinceCut * 4 > this.cutDelay * 3 && (getLimit() == 1 || getLimit() * 4 <= this.cutLimit * 3)) {
					// A quarter of the limit, or all of it, is gone and requests admitted since
					// wait no less: the wait is not a queue behind the limit but one every request
					// meets at any concurrency (for a CPU that refusals or a neighbour take, a
					// collection, a dependency slower for now). Fewer requests would not wait
					// less, only serve fewer: take it as the service's latency for now, and go
					// back to the limit before the cuts that did not help.
					this.waitNotOursFloor = this.intervalMinRttSinceCut;
					this.estimate = Math.max(this.estimate, this.cutLimit);
					this.cutLimit = 0;
					return settled();
				}
				if (delaySinceCut * 4 <= this.cutDelay * 3) {
					this.cutLimit = getLimit();
					this.cutDelay = delaySinceCut;
				}
			}
			else if (this.cutLimit == 0) {
				this.cutLimit = getLimit();
				this.cutDelay = delay;
			}
			this.lastCutNanos = now;
			// The queue the luckiest request met: bring the limit to what would have left only the
			// tolerance of it, at most by half at once.
			double ratio = (double) (noLoad + tolerance) / this.intervalMinRtt;
			this.estimate = Math.min(this.estimate - 1, this.estimate * Math.max(0.5, ratio));
			return settled();
		}
		this.cutLimit = 0;
		// Without a queue, grow by a quarter; with some, within the tolerance, by one.
		this.estimate = (delay <= tolerance / 2) ? Math.max(this.estimate + 1, this.estimate * 1.25)
				: this.estimate + 1;
		return settled();
	}

	private int settled() {
		this.estimate = Math.max(1, Math.min(MAX_LIMIT, this.estimate));
		return (int) this.estimate;
	}

	@Override
	public String toString() {
		return "QueueDelayLimit[limit=" + getLimit() + "]";
	}

}
