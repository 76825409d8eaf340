package dev.degradation.sample.extras;

/**
 * Thrown when a call to a dependency fails: no connection, no answer in time, or an error status.
 * The shop answers it with 502; shedding the feature instead is the degradation starter's job.
 */
public class DependencyUnavailableException extends RuntimeException {

	private final String dependency;

	/**
	 * Create an exception.
	 * @param dependency the name of the dependency that failed
	 * @param cause what went wrong
	 */
	public DependencyUnavailableException(String dependency, Throwable cause) {
		super("Dependency '" + dependency + "' is unavailable: " + cause.getMessage(), cause);
		this.dependency = dependency;
	}

	/**
	 * Return the name of the dependency that failed.
	 * @return the dependency name
	 */
	public String dependency() {
		return this.dependency;
	}

}
