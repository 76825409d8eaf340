package dev.degradation.engine;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many times each route of the manifest answered with its fallback. Counting is a
 * {@link LongAdder} increment, so that the request path neither locks nor allocates; metrics
 * read the counts when they are scraped.
 */
public final class FallbackCounts {

	private final LongAdder[] counts;

	/**
	 * Create counts for the given number of routes.
	 * @param routes the number of routes in the manifest
	 */
	public FallbackCounts(int routes) {
		this.counts = new LongAdder[routes];
		for (int i = 0; i < routes; i++) {
			this.counts[i] = new LongAdder();
		}
	}

	/**
	 * Record one fallback answer.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 */
	public void record(int route) {
		this.counts[route].increment();
	}

	/**
	 * Return how many fallback answers a route gave.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @return the count since start
	 */
	public long count(int route) {
		return this.counts[route].sum();
	}

}
