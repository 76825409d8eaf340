package dev.degradation.web.servlet;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The one thread that watches admitted answers whose callers may be reading them slowly
 * ({@link TimeLimitedAnswerResponse}): a write the caller does not take blocks the request's own
 * thread, so only another thread can see how long it has waited. The thread is started by the
 * first answer large enough to be watched and ends after a while with nothing to watch, so that
 * an application that never writes such an answer never has it, and none outlives its use.
 */
final class AnswerWatch {

	private static final long IDLE_SECONDS = 30;

	private volatile @Nullable ScheduledThreadPoolExecutor executor;

	/**
	 * Run a check after a delay.
	 * @param check what to run
	 * @param delayNanos the delay, in nanoseconds
	 * @return the scheduled check, to be cancelled when the answer is written
	 */
	ScheduledFuture<?> schedule(Runnable check, long delayNanos) {
		return executor().schedule(check, delayNanos, TimeUnit.NANOSECONDS);
	}

	private ScheduledThreadPoolExecutor executor() {
		ScheduledThreadPoolExecutor executor = this.executor;
		if (executor == null) {
			synchronized (this) {
				executor = this.executor;
				if (executor == null) {
					executor = new ScheduledThreadPoolExecutor(1, (task) -> {
						Thread thread = new Thread(task, "degradation-answer-watch");
						thread.setDaemon(true);
						return thread;
					});
					executor.setRemoveOnCancelPolicy(true);
					executor.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
					executor.allowCoreThreadTimeOut(true);
					this.executor = executor;
				}
			}
		}
		return executor;
	}

}
