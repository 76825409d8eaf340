package dev.degradation.engine.periodic;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * A task the starter runs on a daemon thread of its own, at a fixed delay, while the context
 * runs: never on the application's task scheduler, which a busy application may starve. A run
 * that throws is logged and the next run comes as planned (a periodic task that throws would
 * otherwise never run again). A task with nothing to do ({@link #hasWork()}) starts no thread
 * until it is told that it may have ({@link #workChanged()}).
 */
public abstract class PeriodicTask implements SmartLifecycle {

	private final Log logger = LogFactory.getLog(getClass());

	private final String threadName;

	private final Duration period;

	private @Nullable ScheduledExecutorService executor;

	private boolean running;

	/**
	 * Create a task.
	 * @param threadName the name of its thread
	 * @param period the delay between the end of one run and the start of the next
	 */
	protected PeriodicTask(String threadName, Duration period) {
		this.threadName = threadName;
		this.period = period;
	}

	/**
	 * Run the task once.
	 */
	protected abstract void runOnce();

	/**
	 * Say what failed when a run throws, for the log.
	 * @return such as {@code "Could not derive the shed level"}
	 */
	protected abstract String failure();

	/**
	 * Called on {@link #start()}, before the first run: a check that refuses to start throws.
	 */
	protected void beforeFirstRun() {
	}

	/**
	 * Whether there is anything to run: checked on {@link #start()} and on
	 * {@link #workChanged()}, so that a task with nothing to do holds no thread.
	 * @return {@code true} unless overridden
	 */
	protected boolean hasWork() {
		return true;
	}

	/**
	 * Say that the task may have work now (its manifest was replaced, say): a running task with
	 * work and no thread yet is scheduled, its first run after {@link #initialDelay()}. A thread
	 * once started stays until {@link #stop()}.
	 */
	protected final synchronized void workChanged() {
		if (this.running && this.executor == null && hasWork()) {
			schedule();
		}
	}

	/**
	 * Return the delay before the first run.
	 * @return the delay, the period unless overridden
	 */
	protected Duration initialDelay() {
		return this.period;
	}

	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		beforeFirstRun();
		this.running = true;
		if (hasWork()) {
			schedule();
		}
	}

	private void schedule() {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, this.threadName);
			thread.setDaemon(true);
			return thread;
		});
		executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
		executor.scheduleWithFixedDelay(this::runSafely, initialDelay().toMillis(), this.period.toMillis(),
				TimeUnit.MILLISECONDS);
		this.executor = executor;
	}

	private void runSafely() {
		try {
			runOnce();
		}
		catch (RuntimeException ex) {
			this.logger.warn(failure(), ex);
		}
	}

	@Override
	public synchronized void stop() {
		this.running = false;
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
		return this.running;
	}

}
