package dev.degradation.autoconfigure;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import dev.degradation.engine.DegradationEngine;

/**
 * Derives the shed level again every second while the context runs, so that a step down due
 * after the hysteresis happens even when no probe comes to trigger it (probes switched off, a
 * dependency released after being forced, a window that ages). One daemon thread.
 */
public class ShedLevelEvaluation implements SmartLifecycle {

	/** How often the level is derived again; the hysteresis is counted in whole seconds. */
	static final Duration PERIOD = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(ShedLevelEvaluation.class);

	private static final AtomicInteger instances = new AtomicInteger();

	private final DegradationEngine engine;

	private @Nullable ScheduledExecutorService executor;

	/**
	 * Create the evaluation of an engine.
	 * @param engine the engine
	 */
	public ShedLevelEvaluation(DegradationEngine engine) {
		this.engine = engine;
	}

	@Override
	public synchronized void start() {
		if (this.executor != null) {
			return;
		}
		String name = "degradation-evaluation-" + instances.incrementAndGet();
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, name);
			thread.setDaemon(true);
			return thread;
		});
		executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
		executor.scheduleWithFixedDelay(this::evaluate, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
		this.executor = executor;
	}

	@Override
	public synchronized void stop() {
		ScheduledExecutorService executor = this.executor;
		if (executor != null) {
			this.executor = null;
			executor.shutdownNow();
			try {
				executor.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.executor != null;
	}

	private void evaluate() {
		try {
			this.engine.evaluate();
		}
		catch (RuntimeException ex) {
			// A periodic task that throws is never run again: log and keep evaluating.
			logger.warn("Could not derive the shed level", ex);
		}
	}

}
