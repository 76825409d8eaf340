package dev.degradation.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.stream.Stream;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.degradation.engine.DegradationState;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;

/**
 * Writes the fallback answer of one route. Everything a writer sends is prepared when the route
 * table is compiled, so that a fallback costs less than the route it replaces. The writer of a
 * {@code stale} route is the one that reads something per request: the stored copy of the
 * request's answer ({@link StaleAnswers}).
 */
public abstract sealed class FallbackWriter
		permits FallbackWriter.Drop, FallbackWriter.Static, FallbackWriter.Unavailable, FallbackWriter.Stale {

	private final String tier;

	FallbackWriter(String tier) {
		this.tier = tier;
	}

	/**
	 * Return the writer for a route's fallback that keeps no copies: a {@code stale} route gets a
	 * store of its own with the default bounds.
	 * @param route the route
	 * @return the writer
	 */
	public static FallbackWriter of(Route route) {
		return of(route, new StaleAnswers(StaleAnswers.Limits.DEFAULT, Clock.systemUTC()));
	}

	/**
	 * Return the writer for a route's fallback.
	 * @param route the route
	 * @param staleAnswers where a {@code stale} route keeps its copies
	 * @return the writer
	 */
	public static FallbackWriter of(Route route, StaleAnswers staleAnswers) {
		Fallback fallback = route.fallback();
		if (fallback instanceof Fallback.Stale stale) {
			return new Stale(route.tier(), staleAnswers.forRoute(route, stale), writer(route.tier(), stale.otherwise()));
		}
		return writer(route.tier(), fallback);
	}

	private static FallbackWriter writer(String tier, Fallback fallback) {
		if (fallback instanceof Fallback.Static staticFallback) {
			return new Static(tier, staticFallback);
		}
		if (fallback instanceof Fallback.Unavailable unavailable) {
			return new Unavailable(tier, unavailable.retryAfterSeconds());
		}
		if (fallback instanceof Fallback.Drop) {
			return new Drop(tier);
		}
		// A kind without a writer must fail when the table is compiled, never answer as another.
		throw new IllegalArgumentException("No fallback writer for kind '" + fallback.kind() + "'");
	}

	/**
	 * Write the fallback answer, marked as degraded.
	 * @param request the request being answered
	 * @param response the response, not yet committed
	 * @param state the state in which the route was shed
	 * @param cause why the route is shed, from {@link DegradationState#shedCause(int)}
	 * @throws IOException if the body cannot be written
	 */
	public final void write(HttpServletRequest request, HttpServletResponse response, DegradationState state,
			String cause) throws IOException {
		response.setHeader(DegradationHeaders.DEGRADED, "true");
		response.setHeader(DegradationHeaders.TIER, this.tier);
		response.setHeader(DegradationHeaders.REASON, cause);
		response.setHeader(DegradationHeaders.LEVEL, state.levelHeader());
		// A degraded answer must never be cached as if it were the real one.
		response.setHeader("Cache-Control", "no-store");
		writeBody(request, response);
	}

	abstract void writeBody(HttpServletRequest request, HttpServletResponse response) throws IOException;

	/**
	 * Whether this answer is small enough to be written in turn with the other cheap answers
	 * ({@link CheapAnswerGate}): it fits a socket's send buffer, so that no slow reader can hold a
	 * turn. A stale copy's size is not known before it is read, so it is not.
	 */
	boolean small() {
		return true;
	}

	/**
	 * {@code 204 No Content}.
	 */
	static final class Drop extends FallbackWriter {

		Drop(String tier) {
			super(tier);
		}

		@Override
		void writeBody(HttpServletRequest request, HttpServletResponse response) {
			response.setStatus(HttpServletResponse.SC_NO_CONTENT);
		}

	}

	/**
	 * A fixed body with its status, content type and headers.
	 */
	static final class Static extends FallbackWriter {

		private final int status;

		private final String contentType;

		private final String[] headers;

		private final byte[] body;

		Static(String tier, Fallback.Static fallback) {
			super(tier);
			this.status = fallback.status();
			this.contentType = fallback.contentType();
			this.headers = fallback.headers()
				.entrySet()
				.stream()
				.flatMap((header) -> Stream.of(header.getKey(), header.getValue()))
				.toArray(String[]::new);
			this.body = fallback.body().getBytes(StandardCharsets.UTF_8);
		}

		@Override
		boolean small() {
			return this.body.length <= CheapAnswerGate.MAX_BODY_BYTES;
		}

		@Override
		void writeBody(HttpServletRequest request, HttpServletResponse response) throws IOException {
			response.setStatus(this.status);
			for (int i = 0; i < this.headers.length; i += 2) {
				response.setHeader(this.headers[i], this.headers[i + 1]);
			}
			response.setContentType(this.contentType);
			response.setContentLength(this.body.length);
			response.getOutputStream().write(this.body);
		}

	}

	/**
	 * {@code 503 Service Unavailable} with a {@code Retry-After}.
	 */
	static final class Unavailable extends FallbackWriter {

		private final String retryAfter;

		Unavailable(String tier, int retryAfterSeconds) {
			super(tier);
			this.retryAfter = Integer.toString(retryAfterSeconds);
		}

		@Override
		void writeBody(HttpServletRequest request, HttpServletResponse response) {
			response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
			response.setHeader("Retry-After", this.retryAfter);
			response.setContentLength(0);
		}

	}

	/**
	 * The stored copy of the request's last good answer with its {@code Age}, or, past the bound
	 * or without a copy, the route's other answer.
	 */
	static final class Stale extends FallbackWriter {

		private final StaleAnswers.RouteCopies copies;

		private final FallbackWriter otherwise;

		Stale(String tier, StaleAnswers.RouteCopies copies, FallbackWriter otherwise) {
			super(tier);
			this.copies = copies;
			this.otherwise = otherwise;
		}

		StaleAnswers.RouteCopies copies() {
			return this.copies;
		}

		@Override
		boolean small() {
			return false;
		}

		@Override
		void writeBody(HttpServletRequest request, HttpServletResponse response) throws IOException {
			StaleAnswers.Served served = this.copies.find(request);
			if (served == null) {
				this.otherwise.writeBody(request, response);
				return;
			}
			StaleAnswers.Copy copy = served.copy();
			response.setStatus(copy.status());
			response.setHeader("Age", Long.toString(served.ageSeconds()));
			if (copy.contentType() != null) {
				response.setContentType(copy.contentType());
			}
			response.setContentLength(copy.body().length);
			response.getOutputStream().write(copy.body());
		}

	}

}
