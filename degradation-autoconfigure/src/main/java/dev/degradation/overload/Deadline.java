package dev.degradation.overload;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The one rule by which a caller's deadline header is read, for admission and for the guarded
 * calls made on the request's behalf alike: a header that is absent or unreadable means no
 * deadline; a value of 0 or less means the deadline has already passed; a value above the
 * trusted maximum counts as the maximum, so that a hostile header (a century) buys nothing.
 * The milliseconds are read by {@link HeaderNumber} into {@code [0, max]}, so what a header can
 * yield is {@link #PASSED} or a positive time, never {@link #NONE}.
 */
public final class Deadline {

	/** What {@link #remainingNanos} answers when the caller gave no readable deadline. */
	public static final long NONE = -1;

	/** What {@link #remainingNanos} answers when the caller's deadline has already passed. */
	public static final long PASSED = 0;

	private Deadline() {
	}

	/**
	 * Read the time a caller still waits, from its header.
	 * @param header the header's value in milliseconds, or {@code null}
	 * @param max the longest deadline trusted
	 * @return the remaining time in nanoseconds: {@link #PASSED} when it has passed, {@link #NONE}
	 * when the header is absent or unreadable, at most {@code max}
	 */
	public static long remainingNanos(@Nullable String header, Duration max) {
		if (!HeaderNumber.readable(header)) {
			return NONE;
		}
		long millis = HeaderNumber.clamped(header, 0, max.toMillis());
		return (millis == 0) ? PASSED : TimeUnit.MILLISECONDS.toNanos(millis);
	}

	/**
	 * Read the time a caller still waits, from its header, as a duration.
	 * @param header the header's value in milliseconds, or {@code null}
	 * @param max the longest deadline trusted
	 * @return the remaining time, {@link Duration#ZERO} when it has passed, or {@code null} when
	 * the caller gave no readable deadline
	 */
	public static @Nullable Duration remaining(@Nullable String header, Duration max) {
		long nanos = remainingNanos(header, max);
		return (nanos == NONE) ? null : Duration.ofNanos(nanos);
	}

}
