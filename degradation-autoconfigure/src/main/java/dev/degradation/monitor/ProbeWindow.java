package dev.degradation.monitor;

import java.time.Duration;
import java.time.Instant;

/**
 * The probe results of the last {@code window} of time: a result recorded at {@code t} counts
 * while {@code now - window < t}. Exact to the millisecond, unlike a per-second bucketed window,
 * so that the thresholds mean exactly what the manifest says. Holds at most {@code capacity}
 * results; the oldest is dropped first. Not thread-safe: its {@link DependencyMonitor} guards it.
 */
final class ProbeWindow {

	private final long windowMillis;

	private final long[] times;

	private final boolean[] healthy;

	private int start;

	private int size;

	private int failures;

	ProbeWindow(Duration window, int capacity) {
		this.windowMillis = window.toMillis();
		this.times = new long[capacity];
		this.healthy = new boolean[capacity];
	}

	void add(Instant at, boolean healthy) {
		evict(at);
		if (this.size == this.times.length) {
			removeOldest();
		}
		int index = (this.start + this.size) % this.times.length;
		this.times[index] = at.toEpochMilli();
		this.healthy[index] = healthy;
		this.size++;
		if (!healthy) {
			this.failures++;
		}
	}

	void clear() {
		this.start = 0;
		this.size = 0;
		this.failures = 0;
	}

	int samples(Instant now) {
		evict(now);
		return this.size;
	}

	int failures(Instant now) {
		evict(now);
		return this.failures;
	}

	double errorRate(Instant now) {
		evict(now);
		return (this.size == 0) ? 0.0 : (double) this.failures / this.size;
	}

	/**
	 * Return how many results in the window were recorded after an instant.
	 * @param since the instant
	 * @param now the current instant, which ages the window
	 * @return the number of results
	 */
	int samplesSince(Instant since, Instant now) {
		return countSince(since, now, false);
	}

	/**
	 * Return how many failed results in the window were recorded after an instant.
	 * @param since the instant
	 * @param now the current instant, which ages the window
	 * @return the number of failed results
	 */
	int failuresSince(Instant since, Instant now) {
		return countSince(since, now, true);
	}

	private int countSince(Instant since, Instant now, boolean failedOnly) {
		evict(now);
		long from = since.toEpochMilli();
		int count = 0;
		for (int i = 0; i < this.size; i++) {
			int index = (this.start + i) % this.times.length;
			if (this.times[index] > from && (!failedOnly || !this.healthy[index])) {
				count++;
			}
		}
		return count;
	}

	private void evict(Instant now) {
		long cutoff = now.toEpochMilli() - this.windowMillis;
		while (this.size > 0 && this.times[this.start] <= cutoff) {
			removeOldest();
		}
	}

	private void removeOldest() {
		if (!this.healthy[this.start]) {
			this.failures--;
		}
		this.start = (this.start + 1) % this.times.length;
		this.size--;
	}

}
