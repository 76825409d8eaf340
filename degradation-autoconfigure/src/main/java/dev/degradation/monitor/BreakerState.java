package dev.degradation.monitor;

/**
 * The state of the circuit breaker that guards the application's calls to a dependency, as
 * evidence of the dependency's health: an open breaker is a failure seen at once by real traffic.
 */
public enum BreakerState {

	/** Calls go through and are counted. */
	CLOSED,

	/** Calls are refused at once: enough of the last ones failed or were slow. */
	OPEN,

	/** A few trial calls go through to decide whether the dependency has recovered. */
	HALF_OPEN

}
