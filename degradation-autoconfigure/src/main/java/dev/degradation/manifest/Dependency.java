package dev.degradation.manifest;

import java.net.URI;
import java.time.Duration;

/**
 * A dependency the service calls, and how to tell whether it is healthy.
 *
 * @param name the name routes use in {@code requires}
 * @param healthUrl the absolute http(s) URL probed with GET ({@code health_url})
 * @param timeout how long a probe may take, connection included ({@code timeout_ms})
 * @param position where the dependency is declared
 */
public record Dependency(String name, URI healthUrl, Duration timeout, Position position) {

	/** Probe timeout used when a dependency declares no {@code timeout_ms}. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(2000);

}
