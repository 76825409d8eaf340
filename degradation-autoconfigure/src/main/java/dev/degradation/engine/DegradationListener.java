package dev.degradation.engine;

/**
 * Told of every change the engine makes, on the thread that made it. Implementations must be
 * quick and must not throw; they log, publish events and count.
 */
public interface DegradationListener {

	/**
	 * Called once for each change of the active shed level.
	 * @param change the change
	 */
	void levelChanged(LevelChange change);

}
