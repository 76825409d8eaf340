package dev.degradation.web;

/**
 * The response headers that mark a degraded answer, so that its consumer can always tell it from
 * a real one.
 */
public final class DegradationHeaders {

	/** {@code true} on every answer served by a fallback. */
	public static final String DEGRADED = "X-Degraded";

	/** The tier whose fallback answered. */
	public static final String TIER = "X-Degradation-Tier";

	/** The active shed level, on every answer that passes the filter. */
	public static final String LEVEL = "X-Degradation-Level";

	private DegradationHeaders() {
	}

}
