package dev.degradation.actuate;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.convert.DurationStyle;

import dev.degradation.engine.SwitchState;
import dev.degradation.monitor.DependencyState;

/**
 * The values an endpoint write carries (a switch's or a dependency's state, a time to live), read
 * strictly: a value is taken only as the documentation writes it, and every refusal names the key,
 * the value and what is accepted. One place for them so that the writes and their messages cannot
 * drift apart.
 */
final class WriteValues {

	/** A TTL in Boot's simple form with its unit: {@code 90s}, {@code 15m}, {@code 2h}, {@code 1d}. */
	private static final Pattern TTL_WITH_UNIT = Pattern.compile("\\+?\\d{1,9}(ns|us|ms|s|m|h|d)",
			Pattern.CASE_INSENSITIVE);

	/** The shortest TTL: an override that ends before an operator can read it is a mistake. */
	private static final Duration MIN_TTL = Duration.ofSeconds(1);

	private final Duration maxTtl;

	WriteValues(Duration maxTtl) {
		this.maxTtl = maxTtl;
	}

	@Nullable Duration ttl(@Nullable String ttl) {
		if (ttl == null) {
			return null;
		}
		String text = ttl.trim();
		Duration duration = null;
		// A TTL says its unit: a bare number (which Boot would read as milliseconds) is refused.
		if (TTL_WITH_UNIT.matcher(text).matches()) {
			duration = DurationStyle.SIMPLE.parse(text);
		}
		else if (text.regionMatches(true, 0, "P", 0, 1)) {
			try {
				duration = DurationStyle.ISO8601.parse(text);
			}
			catch (IllegalArgumentException ex) {
				duration = null;
			}
		}
		if (duration == null) {
			throw badRequest("'ttl' must be a duration with its unit, such as '90s', '15m', '2h' or 'PT15M', but was '"
					+ ttl + "'");
		}
		if (duration.compareTo(MIN_TTL) < 0 || duration.compareTo(this.maxTtl) > 0) {
			throw badRequest("'ttl' must be at least 1s and at most " + readable(this.maxTtl)
					+ " ('degradation.overrides.max-ttl'), but was '" + ttl + "'");
		}
		return duration;
	}

	/**
	 * A duration in the largest unit that it is a whole number of, as an operator writes it:
	 * {@code 15m}, {@code 1d}, {@code 90s}.
	 */
	static String readable(Duration duration) {
		for (ChronoUnit unit : new ChronoUnit[] { ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES,
				ChronoUnit.SECONDS }) {
			if (duration.toMillis() % unit.getDuration().toMillis() == 0) {
				return DurationStyle.SIMPLE.print(duration, unit);
			}
		}
		return DurationStyle.SIMPLE.print(duration, ChronoUnit.MILLIS);
	}

	/**
	 * Read a switch's state as the documentation writes it, and only so: a write is typed strictly,
	 * so {@code "OFF"} or {@code " off "} is refused with what is accepted rather than guessed at.
	 */
	static SwitchState switchState(@Nullable String state) {
		return switch ((state != null) ? state : "") {
			case "off" -> SwitchState.OFF;
			case "on" -> SwitchState.ON;
			default -> throw badRequest(
					"'state' must be 'off' or 'on', but was " + ((state != null) ? "'" + state + "'" : "missing"));
		};
	}

	static DependencyState forcedState(@Nullable String state) {
		return switch ((state != null) ? state : "") {
			case "down" -> DependencyState.FAILED;
			case "up" -> DependencyState.HEALTHY;
			default -> throw new InvalidEndpointRequestException(
					"'state' must be 'down' or 'up', but was " + ((state != null) ? "'" + state + "'" : "missing"),
					"'state' must be 'down' or 'up'");
		};
	}

	static InvalidEndpointRequestException badRequest(String message) {
		return new InvalidEndpointRequestException(message, message);
	}

}
