package dev.degradation.event;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.beans.factory.DisposableBean;

/**
 * The thread on which the engine tells its listeners (the change reporter, events, meters) of
 * each change, one after another: a slow listener then holds up only later notifications, never a
 * probe, an Actuator call or a request. One daemon thread, {@code degradation-events-N}, ended
 * with the context.
 */
public class DegradationNotifier implements Executor, DisposableBean {

	private static final AtomicInteger instances = new AtomicInteger();

	private final ExecutorService executor;

	/**
	 * Create the notifier and its thread.
	 */
	public DegradationNotifier() {
		String name = "degradation-events-" + instances.incrementAndGet();
		this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
				(runnable) -> {
					Thread thread = new Thread(runnable, name);
					thread.setDaemon(true);
					return thread;
				});
	}

	@Override
	public void execute(Runnable command) {
		this.executor.execute(command);
	}

	@Override
	public void destroy() {
		this.executor.shutdown();
		try {
			this.executor.awaitTermination(2, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.executor.shutdownNow();
	}

}
