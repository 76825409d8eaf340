package dev.degradation.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The deadline of the request the current thread serves, as its caller sent it, so that every
 * guarded call made for the request gets the time left rather than its full time limit. Set by
 * {@link CallDeadlineFilter}, or by application code around work of its own.
 */
public final class CallDeadline {

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
