package dev.degradation.overload;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;

/**
 * The adaptive limit admission uses when the manifest says {@code concurrency_limit: adaptive}:
 * concurrency-limits' {@link VegasLimit}, configured so that admitted requests wait about their
 * service time instead of queueing inside the application.
 */
public final class AdaptiveLimits {

	/** The most requests in flight an adaptive limit may reach. */
	public static final int MAX_LIMIT = 1000;

	/**
	 * Where an adaptive limit starts: Vegas' own default. Lower, a healthy service that a burst of
	 * a few dozen concurrent callers reaches before the limit has grown would refuse some of them.
	 */
	public static final int INITIAL_LIMIT = 20;

	private AdaptiveLimits() {
	}

	/**
	 * Create the standard adaptive limit.
	 * @return a new limit, one per admission
	 */
	public static Limit standard() {
		int alpha = Integer.getInteger("degradation.experiment.alpha", 3);
		int beta = Integer.getInteger("degradation.experiment.beta", 6);
		int probe = Integer.getInteger("degradation.experiment.probe", 30);
		return VegasLimit.newBuilder()
			.initialLimit(INITIAL_LIMIT)
			.maxConcurrency(MAX_LIMIT)
			.alphaFunction((limit) -> alpha * log10(limit))
			.betaFunction((limit) -> beta * log10(limit))
			.probeMultiplier(probe)
			.build();
	}

	private static int log10(int limit) {
		return Math.max(1, (int) Math.log10(limit));
	}

}
