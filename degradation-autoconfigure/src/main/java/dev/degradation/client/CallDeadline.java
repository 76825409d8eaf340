package dev.degradation.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The deadline of the request the current thread serves, as its caller sent it, so that every
 * guarded call made for the request gets the time left rather than its full time limit. Set by
 * {@link CallDeadlineFilter}, or by application code around work of its own. A reactive chain
 * carries its deadline in its Reactor context instead, under {@link #CONTEXT_KEY}.
 */
public final class CallDeadline {

	/**
	 * The key under which a Reactor {@code Context} holds the deadline (an {@link Instant}) of
	 * the request a reactive chain serves: a thread-local cannot follow a call that hops between
	 * event-loop threads, a subscriber's context does. Written with
	 * {@code contextWrite(Context.of(CallDeadline.CONTEXT_KEY, deadline))}; read by the
	 * {@code WebClient} guard, {@link GuardingExchangeFilter}.
	 */
	public static final String CONTEXT_KEY = CallDeadline.class.getName();

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
