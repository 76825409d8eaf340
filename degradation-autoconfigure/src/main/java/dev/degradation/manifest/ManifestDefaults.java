package dev.degradation.manifest;

import java.time.Duration;

/**
 * The {@code defaults} section of a manifest: how dependencies are probed and judged unless they
 * say otherwise, and how long the shed level waits between two steps down.
 *
 * @param healthCheck the health check every dependency inherits and may override key by key
 * @param hysteresis with {@link ShedScope#ROUTES}, how long a failed dependency's routes stay shed at
 * least, counted from when it began to shed them; with {@link ShedScope#TIERS}, the minimum time
 * between two steps down of the shed level
 * ({@code hysteresis_seconds})
 * @param failedDependencySheds what a failed dependency sheds ({@code failed_dependency_sheds})
 */
public record ManifestDefaults(HealthCheck healthCheck, Duration hysteresis, ShedScope failedDependencySheds) {

	/** The values that apply when the manifest has no {@code defaults} section or omits a key. */
	public static final ManifestDefaults STANDARD = new ManifestDefaults(HealthCheck.STANDARD, Duration.ofSeconds(90),
			ShedScope.ROUTES);

}
