package dev.degradation.overload;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.netflix.concurrency.limits.limit.AbstractLimit;
import org.jspecify.annotations.Nullable;

/**
 * The adaptive concurrency limit: as many requests at once as the service takes without a standing
 * queue, judged by the time requests wait inside it rather than by a ratio of latencies, so that
 * it holds latency near the service time at a limit of 1 as well as at 100, and never refuses a
 * service that is busy but not queueing.
 *
 * <p>Samples are judged in intervals, as CoDel judges a queue: an interval lasts at least
 * {@link #INTERVAL_NANOS} and ends with the first sample after that. A request's wait is its
 * latency less the no-load latency of its kind (the pattern of the route that served it: the
 * shortest latency of that kind in the last two epochs of {@link #EPOCH_NANOS}), since a service's
 * routes take different times without a queue and a health check's millisecond is no measure of a
 * checkout's wait. The interval's evidence is the wait of its luckiest request, in tolerances of
 * its kind (the larger of {@link #TARGET_NANOS} and half its no-load latency): what even that
 * request waited is a standing queue, not a burst or a pause that some requests met. A wait above
 * the tolerance brings the limit down in proportion, at most by half at once; a wait within it
 * lets the limit grow, faster the less it waited. Only an interval that used the limit (at least
 * half of it in flight) is judged: below that, a wait is not the limit's doing. A dropped request
 * halves the limit. A limit the load uses is halved for two intervals now and then, to measure
 * the no-load latency anew: a service never without a queue never serves a request without one.
 * A growth that made a queue is tried again twice as late each time, up to
 * {@link #MAX_PROBE_BACKOFF} judged intervals, so that a limit at its service's size seldom probes
 * above it (on a service of one connection each probe makes its requests wait a whole service
 * time). The interval after a change is not judged: requests admitted as a limit grows
 * find the queue empty, and requests admitted before it shrinks still wait behind the old
 * limit's.
 *
 * <p>A wait every request meets whatever the concurrency (for a CPU that a flood of refusals
 * takes, a collection, a dependency slower for now) is told from a queue behind the limit by what
 * cutting does: once a quarter of the requests in flight are gone and requests admitted since the
 * cut wait no less, the wait is taken as the service's latency for now and the limit goes back to where the
 * cuts began, since fewer requests would not wait less, only serve fewer.
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
 * <p>Thread-safe: {@link AbstractLimit} calls {@link #_update} under its lock, and
 * {@link #onSample(String, long, long, int, boolean)} takes the same lock.
 */
public final class QueueDelayLimit extends AbstractLimit {

	/** The most requests in flight the limit may reach. */
	static final int MAX_LIMIT = 1000;

	/**
	 * Where the limit starts: high enough that a healthy service reached by a burst of a few dozen
	 * callers before the first interval ends refuses none of them.
	 */
	static final int INITIAL_LIMIT = 20;

	/**
	 * The most judged intervals a growth waits for after growths that made a queue: how seldom a
	 * limit at its service's size probes above it.
	 */
	static final int MAX_PROBE_BACKOFF = 32;

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
	 * two epochs. Long, so that a service overloaded for many seconds keeps its service time as
	 * the no-load latency and not the service time and the wait for its CPU (with which the
	 * tolerance let a service of one connection keep two or three requests, each waiting whole
	 * service times); a wait that rises for now is the wait not of the limit's making instead.
	 */
	static final long EPOCH_NANOS = TimeUnit.SECONDS.toNanos(30);

	/**
	 * The most kinds of request whose no-load latencies are kept apart; requests of further kinds
	 * share one, so that a service with unbounded patterns costs a bounded table.
	 */
	static final int MAX_KINDS = 64;

	/**
	 * How soon the first probe of the no-load latency comes once the limit is used, and the next
	 * one after a probe that found it lower.
	 */
	static final long PROBE_DOWN_AGAIN_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** The kind of a request whose kind is not known (no pattern matched it, or the table is full). */
	static final String ANY_KIND = "";

	/**
	 * The shortest latency of each kind of request, in this epoch and the one before: a service's
	 * routes take different times without a queue (a health check a millisecond, a checkout
	 * twenty), and the fastest one's is no measure of another's wait.
	 */
	private final Map<String, long[]> shortestByKind = new HashMap<>();

	/** The kind of the sample being taken, set under the lock by {@link #onSample(String, long, long, int, boolean)}. */
	private @Nullable String sampleKind;

	private long intervalStart = Long.MIN_VALUE;

	/** The smallest wait of the interval, in tolerances of its own kind (1 is at the tolerance). */
	private double intervalLeastWait = Double.MAX_VALUE;

	/** The tolerance of the request that waited least. */
	private long intervalLeastWaitTolerance;

	/**
	 * For the request that waited least: the share of its latency that was no-load, tolerance and
	 * a wait not of the limit's making, which is what a proportional cut keeps.
	 */
	private double intervalLeastWaitRatio = 1;

	/** The wait, in nanoseconds, of the request admitted since the last cut that waited least. */
	private long intervalLeastWaitSinceCut = Long.MAX_VALUE;

	/** The most requests in flight when a request of the interval admitted since the last cut was. */
	private int intervalMaxInflightSinceCut;

	/** The smallest latency less its kind's no-load of the interval, a wait not of the limit's making included. */
	private long intervalLeastRawWait = Long.MAX_VALUE;

	/** Whether some request of the interval waited within its tolerance, a wait not of the limit's making included. */
	private boolean intervalSomeWithinTolerance;

	private int intervalMaxInflight;

	private boolean intervalDropped;

	/** Whether the limit changed at the end of the last interval, whose effect is not yet seen. */
	private boolean settling;

	private long epochStart = Long.MIN_VALUE;

	private double estimate;

	/**
	 * A wait every request meets now, whatever the concurrency: what cutting the limit did not
	 * shorten (for a CPU that refusals or a neighbour take, a collection, a dependency slower for
	 * now). It counts as no-load; 0 when there is none.
	 */
	private long waitNotOurs;

	/** The limit at the last cut that shortened the wait, or 0 outside a run of cuts. */
	private int cutLimit;

	/** The wait that cut answered, in nanoseconds. */
	private long cutWait;

	/** How many requests were in flight at that cut: a cut of a limit the load did not reach changes nothing. */
	private int cutConcurrency;

	/** The tolerance of the request that waited least at that cut: a wait shorter by as much is a queue gone. */
	private long cutTolerance;

	/** The limit before the last growth whose effect is not judged yet, or 0. */
	private int grewFrom;

	/** How many judged intervals the next growth waits for after the last probe failed. */
	private int probeBackoff;

	/** How many judged intervals without a queue are still to pass before the limit may grow. */
	private int growthHoldoff;

	/** When the limit was last cut: only requests admitted after it show what the cut did. */
	private long lastCutNanos = Long.MIN_VALUE;

	/** When the limit may next be halved to measure the no-load latency anew. */
	private long nextProbeDown = Long.MIN_VALUE;

	/** The limit before the probe of the no-load latency under way, 0 when none is. */
	private int probingDownFrom;

	/** Whether the probe under way met a request faster than its kind's no-load, by the target at least. */
	private boolean probeFoundLower;

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
	 * Take the sample of a request of a kind: the pattern of the route that served it, so that
	 * its latency is judged against its own kind's no-load latency.
	 * @param kind the kind, or {@code null} when it is not known
	 * @param startTime when the request was admitted, in nanoseconds
	 * @param rtt how long the service worked on it, in nanoseconds
	 * @param inflight how many requests were in flight when it was admitted
	 * @param didDrop whether the service gave it up itself
	 */
	public synchronized void onSample(@Nullable String kind, long startTime, long rtt, int inflight, boolean didDrop) {
		this.sampleKind = kind;
		try {
			onSample(startTime, rtt, inflight, didDrop);
		}
		finally {
			this.sampleKind = null;
		}
	}

	/**
	 * Return the latency this limit takes for the service's own without a queue, for requests of
	 * no known kind (every request of a limit sampled without kinds).
	 * @return the time in nanoseconds, or {@link Long#MAX_VALUE} before the first sample
	 */
	synchronized long noLoadNanos() {
		long[] shortest = this.shortestByKind.get(ANY_KIND);
		return (shortest != null) ? Math.min(shortest[0], shortest[1]) + this.waitNotOurs : Long.MAX_VALUE;
	}

	/**
	 * Return the kinds of request whose no-load latencies this limit keeps apart now: the
	 * patterns of the routes sampled in the last two epochs.
	 * @return a copy of the kinds, {@link #ANY_KIND} among them when some request had none
	 */
	public synchronized Set<String> kinds() {
		return Set.copyOf(this.shortestByKind.keySet());
	}

	@Override
	protected int _update(long startTime, long rtt, int inflight, boolean didDrop) {
		long latency = Math.max(1, rtt);
		long end = startTime + latency;
		if (this.intervalStart == Long.MIN_VALUE) {
			this.intervalStart = end;
			this.epochStart = end;
			this.nextProbeDown = end + PROBE_DOWN_AGAIN_NANOS;
		}
		if (end - this.epochStart >= EPOCH_NANOS) {
			newEpoch();
			this.epochStart = end;
		}
		long[] shortest = shortest(this.sampleKind);
		boolean known = shortest[0] != Long.MAX_VALUE || shortest[1] != Long.MAX_VALUE;
		if (known && this.probingDownFrom > 0) {
			long before = Math.min(shortest[0], shortest[1]);
			this.probeFoundLower |= before - latency >= TARGET_NANOS;
		}
		shortest[0] = Math.min(shortest[0], latency);
		long noLoad = Math.min(shortest[0], shortest[1]);
		this.intervalMaxInflight = Math.max(this.intervalMaxInflight, inflight);
		this.intervalDropped |= didDrop;
		// The first request of a kind is its own no-load latency, and so no evidence of a wait.
		if (known) {
			weigh(startTime, latency, noLoad, inflight);
		}
		if (end - this.intervalStart < INTERVAL_NANOS) {
			return getLimit();
		}
		int before = getLimit();
		int limit = (this.settling && !this.intervalDropped) ? before : judge(end);
		this.settling = limit != before;
		this.intervalStart = end;
		this.intervalLeastWait = Double.MAX_VALUE;
		this.intervalLeastWaitRatio = 1;
		this.intervalLeastWaitSinceCut = Long.MAX_VALUE;
		this.intervalMaxInflightSinceCut = 0;
		this.intervalLeastRawWait = Long.MAX_VALUE;
		this.intervalSomeWithinTolerance = false;
		this.intervalMaxInflight = 0;
		this.intervalDropped = false;
		return limit;
	}

	/** Take a request's wait into the interval's evidence. */
	private void weigh(long startTime, long latency, long noLoad, int inflight) {
		long tolerance = Math.max(TARGET_NANOS, noLoad / 2);
		long rawWait = latency - noLoad;
		long wait = rawWait - this.waitNotOurs;
		this.intervalLeastRawWait = Math.min(this.intervalLeastRawWait, rawWait);
		this.intervalSomeWithinTolerance |= rawWait <= tolerance;
		double inTolerances = (double) wait / tolerance;
		if (inTolerances < this.intervalLeastWait) {
			this.intervalLeastWait = inTolerances;
			this.intervalLeastWaitTolerance = tolerance;
			this.intervalLeastWaitRatio = (double) (noLoad + this.waitNotOurs + tolerance) / latency;
		}
		if (startTime - this.lastCutNanos >= 0) {
			this.intervalLeastWaitSinceCut = Math.min(this.intervalLeastWaitSinceCut, wait);
			this.intervalMaxInflightSinceCut = Math.max(this.intervalMaxInflightSinceCut, inflight);
		}
	}

	private long[] shortest(@Nullable String kind) {
		String key = (kind != null) ? kind : ANY_KIND;
		long[] shortest = this.shortestByKind.get(key);
		if (shortest == null && this.shortestByKind.size() >= MAX_KINDS) {
			key = ANY_KIND;
			shortest = this.shortestByKind.get(key);
		}
		if (shortest == null) {
			shortest = new long[] { Long.MAX_VALUE, Long.MAX_VALUE };
			this.shortestByKind.put(key, shortest);
		}
		return shortest;
	}

	private void newEpoch() {
		Iterator<long[]> kinds = this.shortestByKind.values().iterator();
		while (kinds.hasNext()) {
			long[] shortest = kinds.next();
			if (shortest[0] == Long.MAX_VALUE) {
				// No request of this kind for a whole epoch: its next one is measured anew.
				kinds.remove();
			}
			else {
				shortest[1] = shortest[0];
				shortest[0] = Long.MAX_VALUE;
			}
		}
	}

	private int judge(long now) {
		if (this.intervalDropped) {
			this.probingDownFrom = 0;
			this.estimate = this.estimate / 2;
			return settled();
		}
		if (this.probingDownFrom > 0) {
			return probedDown(now);
		}
		if (this.intervalLeastWait == Double.MAX_VALUE) {
			// Only first requests of their kinds: nothing to judge by.
			return getLimit();
		}
		if (this.intervalMaxInflight * 2 < getLimit()) {
			// Most of the limit was not used: a delay is not the limit's doing (a service whose
			// latency varies, a bottleneck elsewhere), and the interval says nothing of what more
			// would do.
			return getLimit();
		}
		if (now - this.nextProbeDown >= 0 && getLimit() > 1 && this.intervalMaxInflight >= getLimit()
				&& this.cutLimit == 0 && this.grewFrom == 0) {
			return probeDown();
		}
		// A wait not of the limit's making follows the service's latency down, and is gone once a
		// request is served within its tolerance again.
		if (this.intervalSomeWithinTolerance) {
			this.waitNotOurs = 0;
		}
		else if (this.waitNotOurs > 0) {
			this.waitNotOurs = Math.min(this.waitNotOurs, this.intervalLeastRawWait);
		}
		if (this.intervalLeastWait > 1) {
			if (this.grewFrom > 0) {
				// The last growth made a queue: probe again later, twice as late each time, so
				// that a service of one connection is not offered two requests every few
				// intervals, each probe a whole service time of wait.
				this.probeBackoff = Math.min(MAX_PROBE_BACKOFF, Math.max(1, this.probeBackoff * 2));
				this.growthHoldoff = this.probeBackoff;
				this.grewFrom = 0;
			}
			return cut(now);
		}
		this.cutLimit = 0;
		if (this.grewFrom > 0) {
			this.probeBackoff = 0;
			this.grewFrom = 0;
		}
		if (this.growthHoldoff > 0) {
			this.growthHoldoff--;
			return getLimit();
		}
		this.grewFrom = getLimit();
		// Without a queue, grow by a quarter; with some, within the tolerance, by one.
		this.estimate = (this.intervalLeastWait <= 0.5) ? Math.max(this.estimate + 1, this.estimate * 1.25)
				: this.estimate + 1;
		return settled();
	}

	/**
	 * Halve the limit for an interval to measure the no-load latency anew. A service that is
	 * never without a queue (saturated from its first request, as a JVM started into a storm is;
	 * or held above its size for two epochs by a wait not of the limit's making) never serves a
	 * request without one, so its shortest latency is a queued one, and a queue that is always
	 * there reads as none: the limit would keep it for good. BBR probes its round trip the same
	 * way. Only a limit the load uses is probed, so a service with room refuses nothing for it.
	 */
	private int probeDown() {
		this.probingDownFrom = getLimit();
		this.probeFoundLower = false;
		this.estimate = Math.max(1, getLimit() / 2);
		return settled();
	}

	/**
	 * The probe's interval is over: back to the limit before it, judged from now on by what the
	 * probe measured. A probe that found the no-load latency lower is made again soon, since
	 * halving once may not reach a service's size; one that found nothing waits an epoch.
	 */
	private int probedDown(long now) {
		this.nextProbeDown = now + (this.probeFoundLower ? PROBE_DOWN_AGAIN_NANOS : EPOCH_NANOS);
		this.estimate = this.probingDownFrom;
		this.probingDownFrom = 0;
		return settled();
	}

	/** Even the request that waited least waited longer than its tolerance. */
	private int cut(long now) {
		long waitSinceCut = this.intervalLeastWaitSinceCut;
		if (this.cutLimit > 0 && waitSinceCut != Long.MAX_VALUE) {
			int concurrency = this.intervalMaxInflightSinceCut;
			// Shorter by a quarter, or by a tolerance (going from two requests to one on a
			// service of one connection takes a whole service time off, however long the wait
			// for the CPU beside it): the cuts took a queue away.
			boolean shorter = waitSinceCut * 4 <= this.cutWait * 3 || this.cutWait - waitSinceCut >= this.cutTolerance;
			if (!shorter && (concurrency <= 1 || concurrency * 4 <= this.cutConcurrency * 3)) {
				// A quarter of the requests in flight, or all but one, are gone and requests
				// admitted since wait no less: the wait is not a queue behind the limit but one
				// every request meets at any concurrency. Fewer requests would not wait less,
				// only serve fewer: take it as the service's latency for now, and go back to the
				// limit before the cuts that did not help, as a probe (a queue there backs off).
				this.waitNotOurs = Math.max(0, this.intervalLeastRawWait);
				if (this.cutLimit > getLimit()) {
					this.grewFrom = getLimit();
					this.estimate = this.cutLimit;
				}
				this.cutLimit = 0;
				return settled();
			}
			if (shorter) {
				anchorCut(waitSinceCut, concurrency);
			}
		}
		else if (this.cutLimit == 0) {
			anchorCut(Math.max(0, this.intervalLeastRawWait - this.waitNotOurs), this.intervalMaxInflight);
		}
		this.lastCutNanos = now;
		// The queue the luckiest request met: bring the limit to what would have left only the
		// tolerance of it, at most by half at once.
		this.estimate = Math.min(this.estimate - 1, this.estimate * Math.max(0.5, this.intervalLeastWaitRatio));
		return settled();
	}

	private void anchorCut(long wait, int inflight) {
		this.cutLimit = getLimit();
		this.cutWait = wait;
		this.cutConcurrency = Math.min(getLimit(), inflight);
		this.cutTolerance = this.intervalLeastWaitTolerance;
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
