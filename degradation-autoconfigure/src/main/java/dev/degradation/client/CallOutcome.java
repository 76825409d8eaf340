package dev.degradation.client;

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

}
