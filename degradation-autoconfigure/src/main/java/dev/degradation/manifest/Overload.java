package dev.degradation.manifest;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The {@code overload} section of a manifest: how many requests the service admits at once, how
 * long a core request may wait for a place, and what a refused one is told.
 *
 * @param fixedLimit the concurrency limit when the manifest gives a number; {@code null} for
 * {@code adaptive}, a limit that the service's own latency sets
 * @param maxQueue the longest a core request waits to be admitted ({@code max_queue_ms}); never
 * longer than its caller's deadline
 * @param retryAfter what a refused request is told to wait before retrying
 * ({@code retry_after_seconds})
 * @param hysteresis minimum time between two steps down of the overload signal's level
 * ({@code hysteresis_seconds}; by default the manifest's)
 * @param refusalStatus the status of a refused core request ({@code refusal_status}): {@code 503}
 * or {@code 429}
 */
public record Overload(@Nullable Integer fixedLimit, Duration maxQueue, Duration retryAfter, Duration hysteresis,
		int refusalStatus) {

	/**
	 * The status of a refused request when the section leaves it out: {@code 503}, which every
	 * HTTP client and proxy already treats as "this server cannot take it now".
	 */
	public static final int STANDARD_REFUSAL_STATUS = 503;

	/**
	 * The statuses a refused request may be answered with: {@code 503} (the server is overloaded:
	 * Envoy's and most proxies' choice) or {@code 429} (the caller sends too much: Netflix's
	 * choice, which keeps the connection open on Tomcat).
	 */
	public static final java.util.List<Integer> REFUSAL_STATUSES = java.util.List.of(503, 429);

	/** The value of {@code concurrency_limit} for a limit the service's latency sets. */
	public static final String ADAPTIVE = "adaptive";

	/**
	 * The queue bound when the section leaves it out: none. Under sustained overload a queue only
	 * adds its length to every refusal, and the admitted requests already keep the service busy;
	 * a short queue is for bursts shorter than a request.
	 */
	public static final Duration STANDARD_MAX_QUEUE = Duration.ZERO;

	/** The Retry-After when the section leaves it out. */
	public static final Duration STANDARD_RETRY_AFTER = Duration.ofSeconds(1);

	/**
	 * Return whether the limit adapts to the service's latency.
	 * @return whether {@code concurrency_limit} is {@code adaptive}
	 */
	public boolean adaptive() {
		return this.fixedLimit == null;
	}

}
