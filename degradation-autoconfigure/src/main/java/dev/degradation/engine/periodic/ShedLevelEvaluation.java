package dev.degradation.engine.periodic;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.degradation.engine.DegradationEngine;

/**
 * Derives the shed level again every second while the context runs, so that a step down due
 * after the hysteresis happens even when no probe comes to trigger it (probes switched off, a
 * dependency released after being forced, a window that ages). One daemon thread.
 */
public class ShedLevelEvaluation extends PeriodicTask {

	/** How often the level is derived again; the hysteresis is counted in whole seconds. */
	static final Duration PERIOD = Duration.ofSeconds(1);

	private static final AtomicInteger instances = new AtomicInteger();

	private final DegradationEngine engine;

	/**
	 * Create the evaluation of an engine.
	 * @param engine the engine
	 */
	public ShedLevelEvaluation(DegradationEngine engine) {
		super("degradation-evaluation-" + instances.incrementAndGet(), PERIOD);
		this.engine = engine;
	}

	@Override
	protected void runOnce() {
		this.engine.evaluate();
	}

	@Override
	protected String failure() {
		return "Could not derive the shed level";
	}

}
