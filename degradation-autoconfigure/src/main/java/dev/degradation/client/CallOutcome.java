package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * How a guard judges one answer of a dependency.
 *
 * @param failure whether the answer counts as a failure for the breaker
 * @param retryable whether the call may be tried again (an overload or rate-limit signal)
 * @param retryAfter the wait the server asked for, uncapped, or {@code null}
 */
public record CallOutcome(boolean failure, boolean retryable, @Nullable Duration retryAfter) {

	/** A good answer. */
	public static final CallOutcome SUCCESS = new CallOutcome(false, false, null);

	/** A failed answer that is not worth repeating. */
	public static final CallOutcome FAILURE = new CallOutcome(true, false, null);

	/**
	 * Judge an HTTP answer by its status, as every guarded HTTP client does: a 5xx counts as a
	 * failure; 503 (overloaded) and 429 (rate-limited) may be tried again after their
	 * {@code Retry-After}, and 429 is no failure of the dependency.
	 * @param status the status code
	 * @param retryAfter the {@code Retry-After} header, or {@code null}
	 * @param clock the clock an HTTP date in {@code Retry-After} is measured against
	 * @return the outcome
	 */
	public static CallOutcome ofHttpStatus(int status, @Nullable String retryAfter, Clock clock) {
		if (status == 503 || status == 429) {
			return new CallOutcome(status == 503, true, RetryAfter.parse(retryAfter, clock));
		}
		return (status >= 500 && status < 600) ? FAILURE : SUCCESS;
	}

}
