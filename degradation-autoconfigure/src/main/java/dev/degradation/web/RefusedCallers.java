package dev.degradation.web;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The callers refused lately, by address, so that a refusal is written at once to a caller that
 * may go elsewhere and takes its turn with the other cheap answers only when its caller came back
 * before the {@code Retry-After} it was given: a client that retries at once.
 *
 * <p>Why by address: a refusal's turn costs its caller time and saves the server the CPU of the
 * caller's next request only when that request comes at once, so only such a caller is slowed.
 * Tomcat closes the connection after every {@code 503}, so a connection cannot tell a retrying
 * client; its address can. Behind a proxy every caller has the proxy's address, and the proxy
 * that retries at once is then that client; {@link Mode#NEVER} is for a service whose callers
 * must never wait for a refusal. The address is what the web stack reports, after whatever it
 * trusts of forwarded headers; a caller that forges a new one each time is refused at once, as
 * every caller was before turns. At most {@link #MAX_CALLERS} addresses are kept; past that the
 * oldest are forgotten.
 */
public final class RefusedCallers {

	/** The most addresses remembered at once. */
	static final int MAX_CALLERS = 4096;

	/** Which refusals take turns with the other cheap answers. */
	public enum Mode {

		/** Those to a caller that came back before its {@code Retry-After}: the default. */
		RETRYING,

		/** Every refusal, as long as admitted work is served. */
		ALWAYS,

		/** None: every refusal is written at once. */
		NEVER;

		/**
		 * Read a mode as written in a property, in any case.
		 * @param text the text
		 * @return the mode
		 */
		public static Mode of(String text) {
			return valueOf(text.trim().toUpperCase(Locale.ROOT));
		}

	}

	private final Mode mode;

	private final ConcurrentHashMap<String, Long> refusedAt = new ConcurrentHashMap<>();

	/**
	 * Create the record of refused callers.
	 * @param mode which refusals take turns
	 */
	public RefusedCallers(Mode mode) {
		this.mode = mode;
	}

	/**
	 * Return which refusals take turns.
	 * @return the mode
	 */
	public Mode mode() {
		return this.mode;
	}

	/**
	 * Record a refusal to a caller and return whether it is to take its turn: its caller was refused
	 * before, less than the {@code Retry-After} it was given ago.
	 * @param address the caller's address, {@code null} when the stack does not know it
	 * @param retryAfterSeconds the {@code Retry-After} the refusals carry, in seconds
	 * @param nowNanos now, by {@link System#nanoTime()}
	 * @return whether the refusal takes a turn
	 */
	public boolean inTurn(@Nullable String address, long retryAfterSeconds, long nowNanos) {
		if (this.mode != Mode.RETRYING) {
			return this.mode == Mode.ALWAYS;
		}
		if (address == null) {
			return false;
		}
		Long before = this.refusedAt.put(address, nowNanos);
		if (before == null && this.refusedAt.size() > MAX_CALLERS) {
			forgetBefore(nowNanos - TimeUnit.SECONDS.toNanos(Math.max(1, retryAfterSeconds)));
		}
		return before != null && nowNanos - before < TimeUnit.SECONDS.toNanos(Math.max(1, retryAfterSeconds));
	}

	private void forgetBefore(long oldest) {
		this.refusedAt.values().removeIf((at) -> at - oldest < 0);
		if (this.refusedAt.size() > MAX_CALLERS) {
			// Still more callers than kept within one Retry-After: a flood of addresses, of which
			// none is worth more than another.
			this.refusedAt.clear();
		}
	}

	/**
	 * Return how many addresses are remembered now.
	 * @return the count
	 */
	int remembered() {
		return this.refusedAt.size();
	}

}
