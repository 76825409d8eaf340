package dev.degradation.actuate;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.function.BooleanSupplier;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.RequestPath;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.util.ClassUtils;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.degradation.web.servlet.UnreadBody;

/**
 * Checks a write to the {@code degradation} endpoint on Spring MVC before the Actuator reads it,
 * by the rules of {@link EndpointWriteCheck}, so that every refusal says what was wrong: the
 * Actuator reads a write's body as text values (so {@code "yes"} and {@code 1} would pass for
 * {@code true}, {@code "1"} for a number), lets a body key replace a part of the URL, and answers
 * a malformed body, a missing {@code Content-Type} or a read-only endpoint with a bare status. A
 * write that passes goes on with its body replayed, read as JSON when it had no
 * {@code Content-Type}.
 */
public class EndpointWriteFilter extends OncePerRequestFilter {

	private static final boolean OBSERVED = ClassUtils.isPresent("io.micrometer.observation.Observation",
			EndpointWriteFilter.class.getClassLoader());

	private final EndpointWriteCheck check;

	private final BooleanSupplier writable;

	/**
	 * Create a filter.
	 * @param endpointPath the endpoint's path within the application, such as
	 * {@code /actuator/degradation}
	 * @param writable whether the endpoint takes writes over the web now
	 */
	public EndpointWriteFilter(String endpointPath, BooleanSupplier writable) {
		this.check = new EndpointWriteCheck(endpointPath);
		this.writable = writable;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !this.check.checks(request.getMethod(), target(request));
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String target = target(request);
		if (OBSERVED) {
			Observed.measureAs(request, this.check.pattern(target));
		}
		if (target == null) {
			chain.doFilter(request, response);
			return;
		}
		EndpointWriteCheck.Refusal refusal = this.check.beforeBody(request.getMethod(), target,
				request.getQueryString(), this.writable.getAsBoolean(), request.getContentType(),
				request.getContentLengthLong());
		if (refusal != null) {
			refuse(request, response, refusal);
			return;
		}
		if (!"POST".equals(request.getMethod())) {
			chain.doFilter(request, response);
			return;
		}
		byte[] body = request.getInputStream().readNBytes(EndpointWriteCheck.MAX_BODY_BYTES + 1);
		refusal = this.check.body(target, body);
		if (refusal != null) {
			refuse(request, response, refusal);
			return;
		}
		chain.doFilter(new CheckedWrite(request, body), response);
	}

	/**
	 * The target on the path the dispatcher servlet routes: parsed as Spring MVC parses it
	 * (context and servlet path removed), so that the check and the Actuator read one path.
	 */
	private @Nullable String target(HttpServletRequest request) {
		boolean parsed = ServletRequestPathUtils.hasParsedRequestPath(request);
		RequestPath path = parsed ? ServletRequestPathUtils.getParsedRequestPath(request)
				: ServletRequestPathUtils.parseAndCache(request);
		try {
			return this.check.target(path.pathWithinApplication());
		}
		finally {
			if (!parsed) {
				ServletRequestPathUtils.clearParsedRequestPath(request);
			}
		}
	}

	/**
	 * Answer a refused write at once, then let what arrives of its body go, within the bounds the
	 * starter keeps for every body nobody will use, as on WebFlux. A connection closed on a body
	 * not read is reset, and the reset discards the answer before its caller reads it: Tomcat
	 * swallows the rest of a body itself, Jetty does not.
	 */
	private static void refuse(HttpServletRequest request, HttpServletResponse response,
			EndpointWriteCheck.Refusal refusal) throws IOException {
		if (refusal.readOnly()) {
			response.setHeader(HttpHeaders.ALLOW, "GET");
		}
		response.setStatus(refusal.status());
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8.name());
		response.getOutputStream().write(refusal.body());
		UnreadBody.letGoHoldingThreadIfNeeded(request, response);
	}

	/**
	 * The HTTP server observation of the request, where Micrometer is present.
	 */
	private static final class Observed {

		static void measureAs(HttpServletRequest request, String pattern) {
			ServerHttpObservationFilter.findObservationContext(request)
				.ifPresent((context) -> setPattern(context, pattern));
		}

		private static void setPattern(ServerRequestObservationContext context, String pattern) {
			if (context.getPathPattern() == null) {
				context.setPathPattern(pattern);
			}
		}

	}

	/**
	 * The request as checked: its body read once and replayed, read as JSON when it had no
	 * {@code Content-Type}.
	 */
	private static final class CheckedWrite extends HttpServletRequestWrapper {

		private final byte[] body;

		private final boolean typed;

		CheckedWrite(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = body;
			this.typed = request.getContentType() != null;
		}

		@Override
		public String getContentType() {
			return this.typed ? super.getContentType() : MediaType.APPLICATION_JSON_VALUE;
		}

		@Override
		public @Nullable String getHeader(String name) {
			return (!this.typed && HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) ? MediaType.APPLICATION_JSON_VALUE
					: super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			return (!this.typed && HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name))
					? Collections.enumeration(List.of(MediaType.APPLICATION_JSON_VALUE)) : super.getHeaders(name);
		}

		@Override
		public Enumeration<String> getHeaderNames() {
			List<String> names = Collections.list(super.getHeaderNames());
			if (!this.typed) {
				names.add(HttpHeaders.CONTENT_TYPE);
			}
			return Collections.enumeration(names);
		}

		@Override
		public int getContentLength() {
			return this.body.length;
		}

		@Override
		public long getContentLengthLong() {
			return this.body.length;
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream input = new ByteArrayInputStream(this.body);
			return new ServletInputStream() {

				@Override
				public int read() {
					return input.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					return input.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return input.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new UnsupportedOperationException("A checked write is read synchronously");
				}

			};
		}

	}

}
