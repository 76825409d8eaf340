package dev.degradation.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The time the guarded attempt the current thread is making may take, for the HTTP client to
 * enforce as its own per-request timeout: then the attempt needs no thread of its own, since the
 * client gives up on the caller's thread. A client hook {@linkplain #claim() claims} the limit
 * while it prepares the request; an attempt whose limit nobody claimed was not bounded by its
 * client, so the guard runs such calls on its bounded executor instead.
 *
 * <p>Set by {@link DependencyGuard} around each attempt of a call made through the
 * {@code RestClient} interceptor, on the thread the attempt runs on.
 */
public final class AttemptLimit implements AutoCloseable {

	private static final ThreadLocal<@Nullable AttemptLimit> current = new ThreadLocal<>();

	private final Duration limit;

	private final @Nullable AttemptLimit previous;

	private final Runnable onClaim;

	private volatile boolean claimed;

	private AttemptLimit(Duration limit, @Nullable AttemptLimit previous, Runnable onClaim) {
		this.limit = limit;
		this.previous = previous;
		this.onClaim = onClaim;
	}

	/**
	 * Return the time the current thread's guarded attempt may take, and record that the HTTP
	 * client enforces it. For a client hook, on the thread that sends the request.
	 * @return the limit, or {@code null} when the thread makes no guarded attempt
	 */
	public static @Nullable Duration claim() {
		AttemptLimit attempt = current.get();
		if (attempt == null) {
			return null;
		}
		if (!attempt.claimed) {
			attempt.claimed = true;
			attempt.onClaim.run();
		}
		return attempt.limit;
	}

	/**
	 * Begin an attempt on the current thread ({@link #close()} ends it), told at once when a
	 * client hook claims its limit: the calls that follow need not wait for this one to end to
	 * learn that their client enforces the limit (with a dependency that hangs, each of them
	 * would start a thread meanwhile).
	 * @param limit the time the attempt may take
	 * @param onClaim what to do when the limit is first claimed
	 * @return the attempt's limit
	 */
	static AttemptLimit begin(Duration limit, Runnable onClaim) {
		AttemptLimit attempt = new AttemptLimit(limit, current.get(), onClaim);
		current.set(attempt);
		return attempt;
	}

	/**
	 * Return whether a client hook claimed this limit, so the client enforced it.
	 * @return whether it was claimed
	 */
	boolean claimed() {
		return this.claimed;
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
