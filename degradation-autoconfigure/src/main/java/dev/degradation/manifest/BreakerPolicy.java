package dev.degradation.manifest;

import java.time.Duration;

/**
 * The circuit breaker that guards the application's own calls to one dependency
 * ({@code breaker:}): it opens when enough of the last calls failed or were slow, answers at once
 * while open, and lets a few trial calls through once {@code open} has passed.
 *
 * @param failureRateThreshold failed share of the window's calls, above 0 and at most 1, at or
 * above which the breaker opens ({@code failure_rate_threshold})
 * @param slowCallRateThreshold slow share of the window's calls at or above which it opens
 * ({@code slow_call_rate_threshold})
 * @param slowCallDuration how long a call may take before it counts as slow
 * ({@code slow_call_duration_ms})
 * @param windowSize how many of the last calls are judged ({@code window_size})
 * @param minimumCalls how many calls the window needs before the breaker may open
 * ({@code minimum_calls})
 * @param open how long the breaker stays open before trial calls are let through
 * ({@code open_ms})
 * @param halfOpenCalls how many trial calls a half-open breaker lets through, and judges, before
 * it closes or opens again ({@code half_open_calls}); the calls beyond them are refused as while
 * open
 */
public record BreakerPolicy(double failureRateThreshold, double slowCallRateThreshold, Duration slowCallDuration,
		int windowSize, int minimumCalls, Duration open, int halfOpenCalls) {

	/**
	 * Return the policy that applies where nothing is written, for a dependency whose calls may
	 * take {@code callTimeout}: opens at 50 % failed or slow calls (slow: half the call timeout)
	 * over the last 20 calls once 10 are in, stays open 5 s, then judges 3 trial calls. Resilience4j
	 * lets 10 trials through; while they are out every other request of a route that requires
	 * the dependency is refused, so fewer trials expose fewer callers to a dependency still broken.
	 * @param callTimeout the time limit of one call
	 * @return the standard policy
	 */
	public static BreakerPolicy standard(Duration callTimeout) {
		return new BreakerPolicy(0.5, 0.5, callTimeout.dividedBy(2).isZero() ? callTimeout : callTimeout.dividedBy(2),
				20, 10, Duration.ofSeconds(5), 3);
	}

}
