package dev.degradation.client;

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
			@org.jspecify.annotations.Nullable Throwable cause) {
		super("Dependency '" + dependency + "' unavailable (" + reason.name().toLowerCase(java.util.Locale.ROOT)
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
		EXECUTOR_FULL

	}

}
