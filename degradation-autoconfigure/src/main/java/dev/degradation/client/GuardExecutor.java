package dev.degradation.client;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

/**
 * The threads of the guarded calls that need one: calls whose HTTP client enforces no
 * per-request timeout, and code guarded through the API ({@code guards.call(...)}), whose time
 * limit only a thread of its own can keep. At most {@code maxCalls} of them run at once; a call
 * beyond that is refused at once instead of queued (its caller gets a
 * {@link DependencyUnavailableException}, so the route's fallback), and counted. A call that
 * overran is interrupted, and holds its place until its thread is actually free: a client whose
 * blocking read ignores the interrupt keeps its thread, and the bound counts it.
 */
public final class GuardExecutor implements AutoCloseable {

	private static final AtomicInteger instances = new AtomicInteger();

	private final Executor threads;

	private final @Nullable ExecutorService owned;

	private final Semaphore permits;

	private final int maxCalls;

	private final LongAdder rejected = new LongAdder();

	private GuardExecutor(Executor threads, @Nullable ExecutorService owned, int maxCalls) {
		if (maxCalls < 1) {
			throw new IllegalArgumentException("'maxCalls' must be at least 1, was " + maxCalls);
		}
		this.threads = threads;
		this.owned = owned;
		this.maxCalls = maxCalls;
		this.permits = new Semaphore(maxCalls);
	}

	/**
	 * Return an executor of platform threads ({@code degradation-call-N-M}, daemon, kept 30 s
	 * when idle).
	 * @param maxCalls how many calls may run at once
	 * @return the executor
	 */
	public static GuardExecutor platformThreads(int maxCalls) {
		String prefix = "degradation-call-" + instances.incrementAndGet() + "-";
		AtomicInteger count = new AtomicInteger();
		ThreadPoolExecutor pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
				new SynchronousQueue<>(), (task) -> {
					Thread thread = new Thread(task, prefix + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		return new GuardExecutor(pool, pool, maxCalls);
	}

	/**
	 * Return an executor that runs each call on a thread of the given executor, such as one
	 * that starts a virtual thread per task.
	 * @param threads the executor that gives each call its thread; never queues
	 * @param maxCalls how many calls may run at once
	 * @return the executor
	 */
	public static GuardExecutor of(Executor threads, int maxCalls) {
		return new GuardExecutor(threads, null, maxCalls);
	}

	/**
	 * Run a call on a thread of its own and wait for it at most the given time.
	 * @param <T> the type of the answer
	 * @param call the call
	 * @param limit the longest wait
	 * @return its answer
	 * @throws RejectedExecutionException if {@code maxCalls} calls are running
	 * @throws TimeoutException if it did not end within the limit (it is then interrupted)
	 * @throws InterruptedException if the waiting thread is interrupted (the call is then too)
	 * @throws ExecutionException if the call threw
	 */
	<T> T run(Callable<T> call, Duration limit)
			throws TimeoutException, InterruptedException, ExecutionException {
		if (!this.permits.tryAcquire()) {
			this.rejected.increment();
			throw new RejectedExecutionException(this.maxCalls + " guarded calls are running");
		}
		FutureTask<T> task = new FutureTask<>(call);
		try {
			this.threads.execute(() -> {
				try {
					task.run();
				}
				finally {
					this.permits.release();
				}
			});
		}
		catch (RejectedExecutionException ex) {
			this.permits.release();
			this.rejected.increment();
			throw ex;
		}
		try {
			return task.get(limit.toNanos(), TimeUnit.NANOSECONDS);
		}
		finally {
			// A call that overran, or whose caller gave up, must not hold its thread.
			task.cancel(true);
		}
	}

	/**
	 * Return how many calls were refused because {@code maxCalls} were running.
	 * @return the count since start
	 */
	public long rejected() {
		return this.rejected.sum();
	}

	/**
	 * Return how many calls hold a thread now.
	 * @return the count
	 */
	public int active() {
		return this.maxCalls - this.permits.availablePermits();
	}

	/**
	 * Return how many calls may run at once.
	 * @return the bound
	 */
	public int maxCalls() {
		return this.maxCalls;
	}

	/**
	 * Stop the threads this executor created.
	 */
	@Override
	public void close() {
		if (this.owned != null) {
			this.owned.shutdownNow();
		}
	}

}
