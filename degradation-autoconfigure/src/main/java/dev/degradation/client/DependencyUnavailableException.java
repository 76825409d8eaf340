package dev.degradation.client;

import java.io.IOException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a guarded call that did not get an answer from its dependency: the breaker is open,
 * the call ran out of time or budget, it failed after its retries, or no thread was free for it.
 * The application catches it to give its own reduced answer.
 */
public class DependencyUnavailableException extends RuntimeException {

	private final String dependency;

	private final Reason reason;

	/**
	 * Create an exception.
	 * @param dependency the dependency's name
	 * @param reason why the call got no answer
	 * @param message the detail
	 * @param cause the failure of the last attempt, if any
	 */
	public DependencyUnavailableException(String dependency, Reason reason, String message,
			@Nullable Throwable cause) {
		super("Dependency '" + dependency + "' unavailable (" + reason.name().toLowerCase(Locale.ROOT)
				+ "): " + message, cause);
		this.dependency = dependency;
		this.reason = reason;
	}

	/**
	 * Return the dependency's name.
	 * @return the name
	 */
	public String dependency() {
		return this.dependency;
	}

	/**
	 * Return why the call got no answer.
	 * @return the reason
	 */
	public Reason reason() {
		return this.reason;
	}

	/**
	 * Find, in a failure's cause chain (16 causes deep at most) or among the exceptions suppressed
	 * along it, a guarded call whose dependency gave no answer: the breaker kept the call back, no
	 * instance of its service was found, the time ran out, or the call failed on its way (an I/O
	 * error). Any other failure of a guarded call, such as a bug in the code that made it, is the
	 * application's error, not a reason for the route's fallback. A gateway's guard attaches the
	 * exception as a suppressed one, so that the failure the gateway raised stays the direct cause,
	 * where the gateway's {@code Retry} filter looks for what it retries.
	 * @param failure the failure of a request's handler
	 * @return the guarded call's exception, or {@code null}
	 */
	public static @Nullable DependencyUnavailableException withoutAnswer(
			@Nullable Throwable failure) {
		DependencyUnavailableException refused = attached(failure);
		if (refused == null) {
			return null;
		}
		return (refused.reason() != Reason.FAILED || cause(refused.getCause(), IOException.class) != null)
				? refused : null;
	}

	/**
	 * Return the dependency whose guarded call gave no answer, as {@link #withoutAnswer} finds it:
	 * how the request decision reads a handler's failure.
	 * @param failure the failure of a request's handler
	 * @return the dependency's name, or {@code null} when the failure is not such a call
	 */
	public static @Nullable String dependencyWithoutAnswer(@Nullable Throwable failure) {
		DependencyUnavailableException refused = withoutAnswer(failure);
		return (refused != null) ? refused.dependency() : null;
	}

	private static @Nullable DependencyUnavailableException attached(@Nullable Throwable failure) {
		Throwable cause = failure;
		for (int depth = 0; cause != null && depth < 16; depth++) {
			if (cause instanceof DependencyUnavailableException refused) {
				return refused;
			}
			for (Throwable suppressed : cause.getSuppressed()) {
				if (suppressed instanceof DependencyUnavailableException refused) {
					return refused;
				}
			}
			cause = (cause.getCause() != cause) ? cause.getCause() : null;
		}
		return null;
	}

	private static <T extends Throwable> @Nullable T cause(
			@Nullable Throwable failure, Class<T> type) {
		Throwable cause = failure;
		for (int depth = 0; cause != null && depth < 16; depth++) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
			cause = (cause.getCause() != cause) ? cause.getCause() : null;
		}
		return null;
	}

	/**
	 * Why a guarded call got no answer.
	 */
	public enum Reason {

		/** The breaker is open (or half-open with its trials taken): the call was not made. */
		BREAKER_OPEN,

		/** The call took longer than its time limit or the time left of its deadline. */
		TIMEOUT,

		/** The call failed, after any retries. */
		FAILED,

		/**
		 * The call needed a thread of the guards' bounded executor and none was free: it was not
		 * made, and the dependency's breaker does not count it.
		 */
		EXECUTOR_FULL,

		/**
		 * The dependency is a service named by id and its load balancer found no instance of it
		 * (discovery knows none): the call was not made, and the dependency's breaker counts it as
		 * a failure, as it would a call that found nothing listening.
		 */
		NO_INSTANCE,

		/**
		 * The request the call was made for simulates the dependency as failed
		 * ({@code dev.degradation.engine.RequestSimulation}): the call was not made, and nothing
		 * counts it.
		 */
		SIMULATED

	}

}
