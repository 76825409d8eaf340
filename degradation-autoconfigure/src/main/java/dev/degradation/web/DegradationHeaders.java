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

	/**
	 * Why the route was shed, on every answer served by a fallback: a short, stable cause such as
	 * {@code dependency:recommendations-api}, {@code simulation} or
	 * {@code dependency-hysteresis}.
	 */
	public static final String REASON = "X-Degradation-Reason";

	/**
	 * The active shed level, on every answer served by a fallback and, unless configured otherwise
	 * ({@code degradation.filter.level-header}), on every other answer that passes the filter.
	 */
	public static final String LEVEL = "X-Degradation-Level";

	private DegradationHeaders() {
	}

}
