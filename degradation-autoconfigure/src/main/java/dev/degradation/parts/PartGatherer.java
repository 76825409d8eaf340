package dev.degradation.parts;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Starts the gathering of the optional parts of one answer ({@link #gather(Duration)}). The calls
 * run on a bounded executor: a part that finds it full is missing at once, so that a slow
 * dependency can hold at most the executor's threads, never the request threads.
 *
 * <pre class="code">
 * Gathering parts = gatherer.gather(Duration.ofMillis(800));
 * Part&lt;List&lt;Review&gt;&gt; reviews = parts.optional("reviews", Duration.ofMillis(300),
 *         () -&gt; reviewsApi.reviews(id), lastReviews, id);
 * Part&lt;List&lt;Item&gt;&gt; recommendations = parts.optional("recommendations", Duration.ofMillis(300),
 *         () -&gt; recommendationsApi.items(id));
 * Product product = catalog.find(id); // the core: no fallback
 * return new ProductPage(product, reviews.value(), recommendations.value());
 * </pre>
 */
public final class PartGatherer implements AutoCloseable {

	private final ExecutorService executor;

	private final PartOutcomes outcomes;

	private final Clock clock;

	private final Consumer<Gathering> onStart;

	/**
	 * Create a gatherer.
	 * @param executor the executor of the parts' calls, bounded
	 * @param outcomes told how each part was settled
	 * @param clock the clock by which the deadline is measured
	 * @param onStart told of each gathering as it starts (to tie it to the current request)
	 */
	public PartGatherer(ExecutorService executor, PartOutcomes outcomes, Clock clock, Consumer<Gathering> onStart) {
		this.executor = executor;
		this.outcomes = outcomes;
		this.clock = clock;
		this.onStart = onStart;
	}

	/**
	 * Create a bounded executor for the parts' calls: so many daemon threads, and so many calls
	 * waiting at most; a call beyond that is refused.
	 * @param threads the threads
	 * @param queueCapacity the calls that may wait for a thread
	 * @return the executor
	 */
	public static ExecutorService boundedExecutor(int threads, int queueCapacity) {
		if (threads < 1 || queueCapacity < 0) {
			throw new IllegalArgumentException(
					"'threads' must be at least 1 and 'queueCapacity' not negative, but they are " + threads + " and "
							+ queueCapacity);
		}
		AtomicInteger count = new AtomicInteger();
		ThreadFactory factory = (task) -> {
			Thread thread = new Thread(task, "degradation-parts-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
		return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
				(queueCapacity > 0) ? new ArrayBlockingQueue<>(queueCapacity) : new SynchronousQueue<>(),
				factory, new ThreadPoolExecutor.AbortPolicy());
	}

	/**
	 * Start gathering the parts of one answer.
	 * @param deadline the time left for the whole answer: no part runs beyond it, whatever its
	 * own budget
	 * @return the gathering
	 */
	public Gathering gather(Duration deadline) {
		Gathering gathering = new Gathering(this.executor, this.outcomes, this.clock,
				this.clock.millis() + deadline.toMillis());
		this.onStart.accept(gathering);
		return gathering;
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
