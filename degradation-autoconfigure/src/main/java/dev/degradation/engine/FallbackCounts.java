package dev.degradation.engine;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many times each route of the manifest answered with its fallback, by
 * {@link ShedCauseKind kind of cause}. Counting is a {@link LongAdder} increment, so that the
 * request path neither locks nor allocates; metrics read the counts when they are scraped.
 */
public final class FallbackCounts {

	private static final int KINDS = ShedCauseKind.values().length;

	private final LongAdder[] counts;

	/**
	 * Create counts for the given number of routes.
	 * @param routes the number of routes in the manifest
	 */
	public FallbackCounts(int routes) {
		this.counts = new LongAdder[routes * KINDS];
		for (int i = 0; i < this.counts.length; i++) {
			this.counts[i] = new LongAdder();
		}
	}

	/**
	 * Record one fallback answer.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @param kind why the route was shed
	 */
	public void record(int route, ShedCauseKind kind) {
		this.counts[route * KINDS + kind.ordinal()].increment();
	}

	/**
	 * Return how many fallback answers a route gave, whatever the cause.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @return the count since start
	 */
	public long count(int route) {
		long total = 0;
		for (int kind = 0; kind < KINDS; kind++) {
			total += this.counts[route * KINDS + kind].sum();
		}
		return total;
	}

	/**
	 * Return how many fallback answers a route gave for one kind of cause.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @param kind the kind of cause
	 * @return the count since start
	 */
	public long count(int route, ShedCauseKind kind) {
		return this.counts[route * KINDS + kind.ordinal()].sum();
	}

}
