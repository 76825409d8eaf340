package dev.degradation.web.servlet;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * The timer that gives an admitted request's place back at its bound while the request's own
 * thread waits on its caller where no wrapper sees the time pass: a body the server reads itself
 * (multipart parts, which it parses from its own stream, past any wrapper), and an answer whose
 * write waits for a caller that does not read it ({@link TimeLimitedAnswerResponse}). Neither
 * wait can be cut off from outside, and each would hold the place for as long as its caller
 * liked. One daemon thread of the filter's own, started by the first request that needs it (most
 * applications take no multipart body and write no large answer under admission), ended after a
 * while with nothing to time, and stopped with the filter.
 */
final class BodyTimer implements AutoCloseable {

	private static final AtomicInteger instances = new AtomicInteger();

	/** How long the thread waits for more to time before it ends. */
	private static final long IDLE_SECONDS = 30;

	private volatile @Nullable ScheduledThreadPoolExecutor executor;

	private boolean closed;

	/** How many tasks were given to the timer, so that a test can see what a request costs it. */
	private final AtomicLong scheduled = new AtomicLong();

	/**
	 * Run a task after a delay, unless cancelled before.
	 * @param task the task, short: it runs on the timer's one thread
	 * @param delayNanos the delay
	 * @return the scheduled task, or {@code null} once the timer was closed (the filter is being
	 * destroyed: the request is still bounded when the server's read returns)
	 */
	@Nullable ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
		ScheduledThreadPoolExecutor executor = executor();
		if (executor == null) {
			return null;
		}
		try {
			this.scheduled.incrementAndGet();
			return executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			return null;
		}
	}

	private @Nullable ScheduledThreadPoolExecutor executor() {
		ScheduledThreadPoolExecutor executor = this.executor;
		if (executor != null) {
			return executor;
		}
		synchronized (this) {
			executor = this.executor;
			if (executor == null && !this.closed) {
				String name = "degradation-body-timer-" + instances.incrementAndGet();
				executor = new ScheduledThreadPoolExecutor(1, (runnable) -> {
					Thread thread = new Thread(runnable, name);
					thread.setDaemon(true);
					return thread;
				});
				// A body that arrived in time cancels its task: the queue holds only the bodies
				// still arriving, not every one of the last bound's.
				executor.setRemoveOnCancelPolicy(true);
				executor.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
				executor.allowCoreThreadTimeOut(true);
				this.executor = executor;
			}
			return executor;
		}
	}

	/**
	 * Return how many tasks were given to the timer so far.
	 * @return the count
	 */
	long scheduled() {
		return this.scheduled.get();
	}

	@Override
	public void close() {
		ScheduledThreadPoolExecutor executor;
		synchronized (this) {
			this.closed = true;
			executor = this.executor;
		}
		if (executor != null) {
			executor.shutdownNow();
		}
	}

}
