package dev.degradation.overload;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;

/**
 * The adaptive limit admission uses when the manifest says {@code concurrency_limit: adaptive}:
 * concurrency-limits' {@link VegasLimit}, configured so that admitted requests wait about their
 * service time instead of queueing inside the application.
 *
 * <p>Vegas estimates the queue a limit builds as {@code limit * (1 - minRtt / rtt)} and keeps it
 * between alpha and beta. Two of its defaults let the queue grow under a sustained overload: every
 * {@code 30 * limit} samples it takes the latency of the moment as the new no-load latency (a
 * "probe"), which under a sustained overload is the queued latency, so the estimated queue falls
 * to nothing and the limit jumps by beta; and alpha and beta (3 and 6 below a limit of 100) keep
 * 3 to 6 requests queued. In seed 000's overload test (a one-connection service of 20 ms) the
 * limit drifted to 13 to 25 and admitted requests waited 10 to 30 times their service time.
 * Here alpha is 2 and beta 4 (times log10 of the limit above 100, as Vegas scales them), and the
 * probe comes every {@code 1000 * limit} samples: a service whose latency rises for good is
 * measured again within that many requests, and meanwhile its limit stays between alpha and
 * about twice beta.
 */
public final class AdaptiveLimits {

	/** The most requests in flight an adaptive limit may reach. */
	static final int MAX_LIMIT = 1000;

	/**
	 * Where an adaptive limit starts: Vegas' own default. Lower, a healthy service that a burst of
	 * a few dozen concurrent callers reaches before the limit has grown would refuse some of them.
	 */
	static final int INITIAL_LIMIT = 20;

	/** The queue below which the limit grows, for a limit under 100. */
	static final int ALPHA = 2;

	/** The queue above which the limit comes down, for a limit under 100. */
	static final int BETA = 4;

	/** How many samples, times the limit, between two measurements of the no-load latency. */
	static final int PROBE_MULTIPLIER = 1000;

	private AdaptiveLimits() {
	}

	/**
	 * Create the standard adaptive limit.
	 * @return a new limit, one per admission
	 */
	public static Limit standard() {
		return VegasLimit.newBuilder()
			.initialLimit(INITIAL_LIMIT)
			.maxConcurrency(MAX_LIMIT)
			.alphaFunction((limit) -> ALPHA * log10(limit))
			.betaFunction((limit) -> BETA * log10(limit))
			.probeMultiplier(PROBE_MULTIPLIER)
			.build();
	}

	private static int log10(int limit) {
		return Math.max(1, (int) Math.log10(limit));
	}

}
