package dev.degradation.overload;

import java.util.concurrent.atomic.LongAdder;

/**
 * One rank's partition of the limit: a ceiling on the requests in flight of every rank under
 * which it is admitted, and how many requests of the rank were shed over it.
 */
final class Partition {

	private final int rank;

	private final int ranks;

	final LongAdder shed = new LongAdder();

	Partition(int rank, int ranks) {
		this.rank = rank;
		this.ranks = ranks;
	}

	boolean degradable() {
		return this.rank < this.ranks;
	}

	int ceiling(int limit) {
		if (!degradable()) {
			return limit;
		}
		return Math.max(1, (int) ((long) limit * (this.rank + 1) / (this.ranks + 1)));
	}

}
