package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import org.jspecify.annotations.Nullable;

import dev.degradation.overload.HeaderNumber;

/**
 * Reads a server's {@code Retry-After} header (RFC 9110: delay-seconds or an HTTP date) as the
 * wait it asks for. The value is input from a server that may misbehave: a negative, unreadable
 * or past value is ignored, and the caller caps what is left.
 */
public final class RetryAfter {

	private RetryAfter() {
	}

	/**
	 * Return the wait a {@code Retry-After} value asks for.
	 * @param value the header value, or {@code null} when there is none
	 * @param clock the clock an HTTP date is measured against
	 * @return the wait, or {@code null} when the value is absent, negative or unreadable
	 */
	public static @Nullable Duration parse(@Nullable String value, Clock clock) {
		if (value == null || value.isBlank()) {
			return null;
		}
		if (HeaderNumber.readable(value)) {
			// delay-seconds has no sign: a negative wait is no wait asked for.
			long seconds = HeaderNumber.clamped(value, -1, Long.MAX_VALUE);
			return (seconds < 0) ? null : Duration.ofSeconds(seconds);
		}
		String text = value.trim();
		try {
			Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
			Duration wait = Duration.between(clock.instant(), at);
			return wait.isNegative() ? Duration.ZERO : wait;
		}
		catch (DateTimeParseException ex) {
			return null;
		}
	}

}
