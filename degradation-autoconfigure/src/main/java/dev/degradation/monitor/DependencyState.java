package dev.degradation.monitor;

/**
 * What the starter believes about a dependency.
 */
public enum DependencyState {

	/**
	 * Not enough probe results in the window to judge (fewer than {@code min_samples}). An unknown
	 * dependency sheds nothing.
	 */
	UNKNOWN,

	/**
	 * Answering well enough: never failed, or recovered to at most {@code recovery_threshold}.
	 */
	HEALTHY,

	/**
	 * Failing: its error rate reached {@code failure_threshold}, and has not yet come down to
	 * {@code recovery_threshold}. Routes that require it are shed.
	 */
	FAILED

}
