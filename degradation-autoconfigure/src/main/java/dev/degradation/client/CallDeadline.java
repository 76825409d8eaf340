package dev.degradation.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The deadline of the request the current thread serves, as its caller sent it, so that every
 * guarded call made for the request gets the time left rather than its full time limit. Set by
 * {@link CallDeadlineFilter}, or by application code around work of its own; a reactive chain
 * holds it in its Reactor context under {@link #KEY} ({@link CallDeadlineWebFilter}).
 *
 * <p>Micrometer's context-propagation carries it to other threads, as it carries any value
 * whose {@code ThreadLocalAccessor} is registered ({@code CallDeadlineAccessor} is, by the
 * {@code ServiceLoader}): an {@code @Async} method behind Spring's
 * {@code ContextPropagatingTaskDecorator}, a task wrapped by a {@code ContextSnapshot}, a Reactor
 * operator after a hop with {@code spring.reactor.context-propagation=auto}.
 */
public final class CallDeadline {

	/**
	 * The key of the deadline (an {@link Instant}) in a Reactor context or a context-propagation
	 * {@code ContextSnapshot}: the key of its {@code ThreadLocalAccessor}.
	 */
	public static final String KEY = CallDeadline.class.getName();

	private static final ThreadLocal<@Nullable Instant> current = new ThreadLocal<>();

	private CallDeadline() {
	}

	/**
	 * Return the deadline of the current thread's request.
	 * @return the deadline, or {@code null} when there is none
	 */
	public static @Nullable Instant current() {
		return current.get();
	}

	/**
	 * Set or clear the deadline of the current thread without restoring it later: for
	 * context-propagation's accessor, which restores what it replaced itself.
	 */
	static void set(@Nullable Instant deadline) {
		if (deadline != null) {
			current.set(deadline);
		}
		else {
			current.remove();
		}
	}

	/**
	 * Run work under a deadline, restoring the previous one afterwards.
	 * @param deadline the deadline, or {@code null} for none
	 * @param work the work
	 * @throws Exception what the work throws
	 */
	public static void runWithin(@Nullable Instant deadline, ThrowingRunnable work) throws Exception {
		Instant previous = current.get();
		current.set(deadline);
		try {
			work.run();
		}
		finally {
			if (previous != null) {
				current.set(previous);
			}
			else {
				current.remove();
			}
		}
	}

	/**
	 * Work that may throw.
	 */
	@FunctionalInterface
	public interface ThrowingRunnable {

		/**
		 * Run the work.
		 * @throws Exception what it throws
		 */
		void run() throws Exception;

	}

}
