package dev.degradation.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.degradation.engine.DegradationState;
import dev.degradation.manifest.Fallback;

/**
 * The fallback writing of {@code drop}, {@code static} and {@code unavailable} routes as it was
 * before the answers became stack-neutral (commit 68f38fc): straight into the servlet response,
 * prepared once per route. For {@link PreviousDegradationFilter}; not part of the product.
 */
final class PreviousFallbackWriters {

	private final Map<ShedRoute, Writer> writers = new ConcurrentHashMap<>();

	void write(ShedRoute route, HttpServletRequest request, HttpServletResponse response, DegradationState state,
			String cause) throws IOException {
		Writer writer = this.writers.computeIfAbsent(route, (shed) -> new Writer(shed.route().tier(),
				shed.route().fallback()));
		writer.write(response, state, cause);
	}

	private static final class Writer {

		private final String tier;

		private final int status;

		private final String contentType;

		private final String[] headers;

		private final byte[] body;

		private final String retryAfter;

		Writer(String tier, Fallback fallback) {
			this.tier = tier;
			if (fallback instanceof Fallback.Static staticFallback) {
				this.status = staticFallback.status();
				this.contentType = staticFallback.contentType();
				this.headers = staticFallback.headers()
					.entrySet()
					.stream()
					.flatMap((header) -> Stream.of(header.getKey(), header.getValue()))
					.toArray(String[]::new);
				this.body = staticFallback.body().getBytes(StandardCharsets.UTF_8);
				this.retryAfter = null;
			}
			else if (fallback instanceof Fallback.Unavailable unavailable) {
				this.status = 503;
				this.contentType = null;
				this.headers = new String[0];
				this.body = null;
				this.retryAfter = Integer.toString(unavailable.retryAfterSeconds());
			}
			else {
				this.status = 204;
				this.contentType = null;
				this.headers = new String[0];
				this.body = null;
				this.retryAfter = null;
			}
		}

		void write(HttpServletResponse response, DegradationState state, String cause) throws IOException {
			response.setHeader(DegradationHeaders.DEGRADED, "true");
			response.setHeader(DegradationHeaders.TIER, this.tier);
			response.setHeader(DegradationHeaders.REASON, cause);
			response.setHeader(DegradationHeaders.LEVEL, state.levelHeader());
			response.setHeader("Cache-Control", "no-store");
			response.setStatus(this.status);
			for (int i = 0; i < this.headers.length; i += 2) {
				response.setHeader(this.headers[i], this.headers[i + 1]);
			}
			if (this.retryAfter != null) {
				response.setHeader("Retry-After", this.retryAfter);
				response.setContentLength(0);
			}
			if (this.body != null) {
				response.setContentType(this.contentType);
				response.setContentLength(this.body.length);
				response.getOutputStream().write(this.body);
			}
		}

	}

}
