package dev.degradation.engine;

import dev.degradation.monitor.DependencyStateChange;
import dev.degradation.monitor.ProbeResult;

/**
 * Told of every change the engine makes, in the order the changes were made, after the engine's
 * lock is released, on the engine's notifier (in an application, a thread of its own, so that a
 * slow listener never holds up a probe or an Actuator call). Listeners log, publish events and
 * count; one that throws is logged and does not stop the change nor the listeners after it.
 */
public interface DegradationListener {

	/**
	 * Called once for each change of the active shed level.
	 * @param change the change
	 */
	default void levelChanged(LevelChange change) {
	}

	/**
	 * Called once for each change of which routes are shed, whether or not the level changed.
	 * @param change the change
	 */
	default void shedChanged(ShedChange change) {
	}

	/**
	 * Called once for each manifest the engine replaced its own with (a reload).
	 * @param replaced the change
	 */
	default void manifestReplaced(ManifestReplaced replaced) {
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
