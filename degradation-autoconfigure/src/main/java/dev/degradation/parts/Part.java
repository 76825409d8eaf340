package dev.degradation.parts;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * One optional part of an answer, being gathered. Its accessors wait until it is settled, which
 * is at most its budget after it was started: fresh, stale (its last good value) or missing.
 *
 * @param <T> the type of its value
 */
public final class Part<T> {

	private final String name;

	private final CompletableFuture<Settled<T>> settled;

	Part(String name, CompletableFuture<Settled<T>> settled) {
		this.name = name;
		this.settled = settled;
	}

	/**
	 * Return the part's name, as it appears in {@code X-Degraded-Parts}.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the part's value: the fresh one, the last good one, or {@code null} when it is
	 * unknown ({@link PartState#MISSING}); waits until the part is settled.
	 * @return the value, or {@code null}
	 */
	public @Nullable T value() {
		return settled().value();
	}

	/**
	 * Return how the part was settled; waits until it is.
	 * @return the state
	 */
	public PartState state() {
		return settled().state();
	}

	/**
	 * Return the age of a stale value; waits until the part is settled.
	 * @return the age, or {@code null} when the part is not {@link PartState#STALE}
	 */
	public @Nullable Duration age() {
		return settled().age();
	}

	/**
	 * Return the part as named in {@code X-Degraded-Parts}: {@code name} when missing,
	 * {@code name;stale;age=<seconds>} when stale, {@code null} when fresh.
	 */
	@Nullable String marker() {
		Settled<T> settled = settled();
		return switch (settled.state()) {
			case FRESH -> null;
			case MISSING -> this.name;
			case STALE -> this.name + ";stale;age=" + ((settled.age() != null) ? settled.age().toSeconds() : 0);
		};
	}

	private Settled<T> settled() {
		// Bounded: the call behind it is timed out at the part's budget.
		return this.settled.join();
	}

	record Settled<T>(@Nullable T value, PartState state, @Nullable Duration age) {

	}

}
