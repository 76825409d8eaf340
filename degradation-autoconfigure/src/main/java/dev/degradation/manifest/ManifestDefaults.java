package dev.degradation.manifest;

import java.time.Duration;

/**
 * The {@code defaults} section of a manifest: how often dependencies are probed, when a
 * dependency counts as failed and as recovered, and how long the shed level waits between two
 * steps down.
 *
 * @param healthCheckInterval time between two probes of a dependency
 * ({@code health_check_interval_ms})
 * @param failureThreshold error rate at or above which a dependency counts as failed
 * ({@code failure_threshold})
 * @param recoveryThreshold error rate at or below which a failed dependency counts as recovered
 * ({@code recovery_threshold})
 * @param hysteresis minimum time between two steps down of the shed level
 * ({@code hysteresis_seconds})
 */
public record ManifestDefaults(Duration healthCheckInterval, double failureThreshold, double recoveryThreshold,
		Duration hysteresis) {

	/** The values that apply when the manifest has no {@code defaults} section or omits a key. */
	public static final ManifestDefaults STANDARD = new ManifestDefaults(Duration.ofMillis(5000), 0.4, 0.15,
			Duration.ofSeconds(90));

}
