package dev.degradation.engine;

import dev.degradation.monitor.DependencyStateChange;
import dev.degradation.monitor.ProbeResult;

/**
 * Told of every change the engine makes, on the thread that made it (a probe thread, or the
 * caller of the Actuator endpoint), in order, while the engine's lock is held. Implementations must
 * be quick and must not call back into the engine; they log, publish events and count. One that
 * throws is logged and does not stop the change.
 */
public interface DegradationListener {

	/**
	 * Called once for each change of the active shed level.
	 * @param change the change
	 */
	default void levelChanged(LevelChange change) {
	}

	/**
	 * Called once for each change of a dependency's effective state.
	 * @param change the change
	 */
	default void dependencyChanged(DependencyStateChange change) {
	}

	/**
	 * Called for every probe result, for timing; never on the request path.
	 * @param dependency the dependency name
	 * @param result the result
	 */
	default void probed(String dependency, ProbeResult result) {
	}

}
