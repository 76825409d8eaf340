package dev.degradation.manifest;

import java.time.Duration;

/**
 * How one dependency is probed and judged: the {@code defaults} of the manifest with the
 * dependency's own overrides applied.
 *
 * @param interval time between the end of one probe and the start of the next
 * ({@code health_check_interval_ms})
 * @param timeout the most one probe may take, connection included ({@code timeout_ms})
 * @param window how far back probe results count ({@code window_seconds})
 * @param minSamples how many results the window needs before the dependency is judged at all
 * ({@code min_samples}); with fewer it is unknown
 * @param failureThreshold error rate at or above which the dependency counts as failed
 * ({@code failure_threshold})
 * @param recoveryThreshold error rate at or below which a failed dependency counts as recovered
 * ({@code recovery_threshold})
 */
public record HealthCheck(Duration interval, Duration timeout, Duration window, int minSamples,
		double failureThreshold, double recoveryThreshold) {

	/**
	 * The values that apply where neither the manifest's {@code defaults} nor the dependency set a
	 * key: a probe every 5 s with a 2 s timeout, judged over 30 s once 3 results are in, failed at
	 * an error rate of 40 %, recovered at 15 %.
	 */
	public static final HealthCheck STANDARD = new HealthCheck(Duration.ofMillis(5000), Duration.ofMillis(2000),
			Duration.ofSeconds(30), 3, 0.4, 0.15);

	/**
	 * Return how many probe results the window can hold at most, for sizing it.
	 * @return the capacity, at least {@code minSamples}
	 */
	public int windowCapacity() {
		long probes = this.window.toMillis() / Math.max(1, this.interval.toMillis()) + 2;
		return (int) Math.max(this.minSamples, Math.min(probes, 10_000));
	}

}
