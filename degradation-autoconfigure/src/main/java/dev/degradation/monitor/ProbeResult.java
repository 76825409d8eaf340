package dev.degradation.monitor;

import java.time.Duration;
import java.time.Instant;

/**
 * The result of one probe of a dependency.
 *
 * @param healthy whether the dependency answered 2xx within its timeout
 * @param outcome a short, bounded description for logs, metrics and the endpoint: {@code ok},
 * {@code http_5xx}, {@code not_found}, {@code timeout}, {@code refused}, {@code down},
 * {@code no_instance} or {@code error}
 * @param detail a human-readable detail, such as the exception message
 * @param at when the probe finished
 * @param latency how long the probe took
 */
public record ProbeResult(boolean healthy, String outcome, String detail, Instant at, Duration latency) {

	/** Outcome of a probe answered with a 2xx status. */
	public static final String OK = "ok";

	/** Outcome of a probe that got no answer within its timeout. */
	public static final String TIMEOUT = "timeout";

	/** Outcome of a probe whose connection was refused. */
	public static final String REFUSED = "refused";

	/** Outcome of a probe whose health indicator reported a status other than UP. */
	public static final String DOWN = "down";

	/**
	 * Outcome of a probe answered {@code 404 Not Found}: the dependency answered, but serves
	 * nothing at the health URL, so the URL is wrong (or, in a test, not stubbed). Such a probe
	 * says nothing of the dependency's health and does not count ({@link #counts()}).
	 */
	public static final String NOT_FOUND = "not_found";

	/**
	 * Outcome of a probe of a service named by id ({@code lb://}) of which discovery knows no
	 * instance: nothing could serve a call, so it is a failure.
	 */
	public static final String NO_INSTANCE = "no_instance";

	/** Outcome of a probe that failed in any other way (unknown host, reset, protocol error). */
	public static final String ERROR = "error";

	/**
	 * Return the outcome of a probe answered with a given HTTP status.
	 * @param status the status code
	 * @return {@code ok} for 2xx, {@code not_found} for 404, otherwise the status class, such as
	 * {@code http_5xx}, so that
	 * the outcome stays a bounded metric tag
	 */
	public static String outcomeOf(int status) {
		if (status == 404) {
			return NOT_FOUND;
		}
		return (status >= 200 && status < 300) ? OK : "http_" + (status / 100) + "xx";
	}

	/**
	 * Return whether this result is evidence of the dependency's health and counts in its window.
	 * A {@link #NOT_FOUND} is not: a health URL that is not served is a mistake of configuration
	 * (or an unstubbed URL in a test), and a mistake must never shed routes; it is warned about
	 * instead.
	 * @return whether it counts
	 */
	public boolean counts() {
		return !NOT_FOUND.equals(this.outcome);
	}

}
