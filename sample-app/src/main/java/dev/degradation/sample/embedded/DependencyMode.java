package dev.degradation.sample.embedded;

/**
 * How an embedded dependency behaves, so that the demo can break one in each way a real
 * dependency breaks while the others stay healthy. Every mode is what a client sees on the wire:
 * a status, a refused connection, or no answer.
 */
public enum DependencyMode {

	/** Every endpoint answers normally; the health endpoint answers 200. */
	HEALTHY,

	/** Every endpoint, the health endpoint included, answers 500 at once. */
	FAILING,

	/**
	 * The dependency's listening socket is closed: connecting to its port is refused, as with a
	 * stopped process. Leaving this mode listens on the same port again.
	 */
	REFUSING,

	/**
	 * Connections are accepted and requests read, but never answered: the client waits until it
	 * gives up. Requests still waiting when the mode changes are answered by the new mode.
	 */
	HANGING,

	/**
	 * Every endpoint answers as when healthy, but only after the slow delay
	 * ({@code sample.embedded.slow-delay}, longer than the manifest's probe timeout), so that a
	 * probe times out although the dependency does answer in the end.
	 */
	SLOW;

	/**
	 * Return whether a request that arrives in this mode is held instead of answered at once.
	 * @return whether the mode holds requests
	 */
	boolean holdsRequests() {
		return this == HANGING || this == SLOW;
	}

}
