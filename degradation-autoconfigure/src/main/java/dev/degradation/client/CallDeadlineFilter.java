package dev.degradation.client;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;

import org.springframework.web.filter.OncePerRequestFilter;

import dev.degradation.overload.Deadline;

/**
 * Reads the deadline a request arrived with (a header of milliseconds, by default Envoy's
 * {@code x-envoy-expected-rq-timeout-ms}) and makes it the {@link CallDeadline} of the calls made
 * while serving it. The caller's figure is never trusted beyond {@code maximum}, so a caller
 * cannot make this service wait longer than it would for anyone.
 */
public class CallDeadlineFilter extends OncePerRequestFilter {

	private final String header;

	private final Duration maximum;

	private final Clock clock;

	/**
	 * Create a filter.
	 * @param header the request header that carries the time left, in milliseconds
	 * @param maximum the longest deadline accepted
	 * @param clock the clock deadlines are measured against
	 */
	public CallDeadlineFilter(String header, Duration maximum, Clock clock) {
		this.header = header;
		this.maximum = maximum;
		this.clock = clock;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Duration budget = budget(request.getHeader(this.header));
		if (budget == null) {
			chain.doFilter(request, response);
			return;
		}
		Instant deadline = this.clock.instant().plus(budget);
		try {
			CallDeadline.runWithin(deadline, () -> chain.doFilter(request, response));
		}
		catch (IOException | ServletException | RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new ServletException(ex);
		}
	}

	/**
	 * The time the caller still waits, read as admission reads it: absent or unreadable is no
	 * deadline, 0 or less has passed (the calls then fail at once, without reaching the
	 * dependency), above the maximum is the maximum.
	 */
	private @Nullable Duration budget(@Nullable String value) {
		return Deadline.remaining(value, this.maximum);
	}

}
