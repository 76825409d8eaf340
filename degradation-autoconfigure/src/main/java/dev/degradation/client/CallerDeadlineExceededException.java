package dev.degradation.client;

import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

/**
 * The time-out of an attempt that the caller's own deadline ended before the dependency's time
 * limit would have: the dependency was not given its time, so this says nothing of it. Every
 * dependency's breaker ignores it (its {@code ignoreException} predicate): the attempt's
 * permission is released and an ignored-error event published, whichever client made the call.
 */
public class CallerDeadlineExceededException extends TimeoutException {

	/**
	 * Create an exception.
	 * @param millisLeft the time the caller's deadline left the attempt, in milliseconds
	 * @param cause the time-out of the client, or {@code null}
	 */
	public CallerDeadlineExceededException(long millisLeft, @Nullable Throwable cause) {
		super("no answer within the caller's deadline (" + millisLeft + " ms left)");
		initCause(cause);
	}

}
