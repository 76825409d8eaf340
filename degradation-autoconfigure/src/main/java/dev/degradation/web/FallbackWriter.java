package dev.degradation.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

import dev.degradation.engine.DegradationState;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;

/**
 * Writes the fallback answer of one route. Everything a writer sends is prepared when the route
 * table is compiled, so that a fallback costs less than the route it replaces.
 */
public abstract sealed class FallbackWriter permits FallbackWriter.Drop, FallbackWriter.Static {

	private final String tier;

	FallbackWriter(String tier) {
		this.tier = tier;
	}

	/**
	 * Return the writer for a route's fallback.
	 * @param route the route
	 * @return the writer
	 */
	public static FallbackWriter of(Route route) {
		Fallback fallback = route.fallback();
		if (fallback instanceof Fallback.Static staticFallback) {
			return new Static(route.tier(), staticFallback.json().getBytes(StandardCharsets.UTF_8));
		}
		if (fallback instanceof Fallback.Drop) {
			return new Drop(route.tier());
		}
		// A kind without a writer must fail when the table is compiled, never answer as another.
		throw new IllegalArgumentException("No fallback writer for kind '" + fallback.kind() + "' of route " + route);
	}

	/**
	 * Write the fallback answer, marked as degraded.
	 * @param response the response, not yet committed
	 * @param state the state in which the route was shed
	 * @param cause why the route is shed, from {@link DegradationState#shedCause(int)}
	 * @throws IOException if the body cannot be written
	 */
	public final void write(HttpServletResponse response, DegradationState state, String cause) throws IOException {
		response.setHeader(DegradationHeaders.DEGRADED, "true");
		response.setHeader(DegradationHeaders.TIER, this.tier);
		response.setHeader(DegradationHeaders.REASON, cause);
		response.setHeader(DegradationHeaders.LEVEL, state.levelHeader());
		// A degraded answer must never be cached as if it were the real one.
		response.setHeader("Cache-Control", "no-store");
		writeBody(response);
	}

	abstract void writeBody(HttpServletResponse response) throws IOException;

	/**
	 * {@code 204 No Content}.
	 */
	static final class Drop extends FallbackWriter {

		Drop(String tier) {
			super(tier);
		}

		@Override
		void writeBody(HttpServletResponse response) {
			response.setStatus(HttpServletResponse.SC_NO_CONTENT);
		}

	}

	/**
	 * {@code 200 OK} with a fixed JSON body.
	 */
	static final class Static extends FallbackWriter {

		private final byte[] body;

		Static(String tier, byte[] body) {
			super(tier);
			this.body = body;
		}

		@Override
		void writeBody(HttpServletResponse response) throws IOException {
			response.setStatus(HttpServletResponse.SC_OK);
			response.setContentType("application/json");
			response.setContentLength(this.body.length);
			response.getOutputStream().write(this.body);
		}

	}

}
