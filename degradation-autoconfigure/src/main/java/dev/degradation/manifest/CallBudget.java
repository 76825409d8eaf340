package dev.degradation.manifest;

import java.time.Duration;

/**
 * How the application's own calls to one dependency are guarded: the time limit of one call, the
 * circuit breaker, and the retries.
 *
 * @param timeout the most one call may take ({@code call_timeout_ms}, by default the
 * dependency's {@code timeout_ms})
 * @param breaker the circuit breaker ({@code breaker:})
 * @param retry the retries ({@code retry:})
 */
public record CallBudget(Duration timeout, BreakerPolicy breaker, RetryPolicy retry) {

	/**
	 * Return the budget that applies where nothing is written.
	 * @param timeout the time limit of one call
	 * @return the standard budget
	 */
	public static CallBudget standard(Duration timeout) {
		return new CallBudget(timeout, BreakerPolicy.standard(timeout), RetryPolicy.standard(timeout));
	}

}
