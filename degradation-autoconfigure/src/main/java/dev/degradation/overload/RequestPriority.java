package dev.degradation.overload;

import org.jspecify.annotations.Nullable;

/**
 * The priority of the request the current thread serves ({@link PassedPriority}: its route's,
 * lowered by what its caller passed), so that the guarded calls made for it pass it on. A web
 * adapter whose requests keep their thread holds it around the request; a reactive one writes it
 * into the request's Reactor context under {@link #KEY}. Micrometer's context-propagation carries
 * it from there across threads (the client package registers its {@code ThreadLocalAccessor}
 * under the same key), so this class stays plain Java.
 */
public final class RequestPriority {

	/**
	 * The key of the priority (an {@code Integer}) in a Reactor context or a context-propagation
	 * {@code ContextSnapshot}: the key of its {@code ThreadLocalAccessor}.
	 */
	public static final String KEY = RequestPriority.class.getName();

	private static final ThreadLocal<@Nullable Integer> current = new ThreadLocal<>();

	private RequestPriority() {
	}

	/**
	 * Return the priority of the current thread's request.
	 * @return the priority ({@link PassedPriority#CORE} for a core request), or {@code null} when
	 * the thread serves no request that holds one
	 */
	public static @Nullable Integer current() {
		return current.get();
	}

	/**
	 * Run work at a priority, restoring the previous one afterwards.
	 * @param priority the priority
	 * @param work the work
	 * @throws Exception what the work throws
	 */
	public static void runWithin(int priority, Work work) throws Exception {
		Held held = hold(priority);
		try {
			work.run();
		}
		finally {
			held.close();
		}
	}

	/**
	 * Set or clear the priority of the current thread without restoring it later: for
	 * context-propagation's accessor, which restores what it replaced itself.
	 * @param priority the priority, or {@code null} for none
	 */
	public static void set(@Nullable Integer priority) {
		if (priority != null) {
			current.set(priority);
		}
		else {
			current.remove();
		}
	}

	/**
	 * Hold a priority for the current thread until the returned handle is closed, for code that
	 * throws checked exceptions of its own (a servlet filter) and would otherwise wrap them.
	 * @param priority the priority
	 * @return the handle that restores the previous priority; close it on the same thread
	 */
	public static Held hold(int priority) {
		Integer previous = current.get();
		current.set(priority);
		return new Held(previous);
	}

	/**
	 * A priority held for the current thread; closing it restores the one before.
	 */
	public static final class Held implements AutoCloseable {

		private final @Nullable Integer previous;

		private Held(@Nullable Integer previous) {
			this.previous = previous;
		}

		@Override
		public void close() {
			if (this.previous != null) {
				current.set(this.previous);
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
	public interface Work {

		/**
		 * Run the work.
		 * @throws Exception what it throws
		 */
		void run() throws Exception;

	}

}
