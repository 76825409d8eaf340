package dev.degradation.web.servlet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

import dev.degradation.overload.Admission.Admitted;

/**
 * An admitted request whose body must have arrived within a time of its admission: a read after
 * that fails, so that a body that trickles in cannot hold its place for longer than its caller
 * waits. A read that blocks with nothing arriving is bounded by the container's own read timeout
 * (Tomcat's {@code connection-timeout}). The time spent waiting in a read is the caller's: it is
 * no part of the request's latency sample.
 *
 * <p>A form ({@code application/x-www-form-urlencoded}, posted with a declared length) is read
 * here too, through the same bounded stream, when the application asks for a parameter: the
 * container parses a form from its own stream, past any wrapper, so a form that trickled in held
 * its place for as long as its caller liked. The container then keeps the query's parameters
 * (it parses no body a wrapper read), and the form's follow them, as the container orders them.
 */
final class TimeLimitedBodyRequest extends HttpServletRequestWrapper {

	private final Admitted admitted;

	private final long limitNanos;

	private final FormLimits formLimits;

	private @Nullable ServletInputStream input;

	private @Nullable BufferedReader reader;

	private @Nullable Map<String, String[]> parameters;

	TimeLimitedBodyRequest(HttpServletRequest request, Admitted admitted, long limitNanos) {
		this(request, admitted, limitNanos, FormLimits.TOMCAT_DEFAULTS);
	}

	TimeLimitedBodyRequest(HttpServletRequest request, Admitted admitted, long limitNanos, FormLimits formLimits) {
		super(request);
		this.admitted = admitted;
		this.limitNanos = limitNanos;
		this.formLimits = formLimits;
	}

	/**
	 * Whether a request may carry a body worth bounding: it declares a length, or is chunked.
	 * @param request the request
	 * @return whether it may
	 */
	static boolean mayHaveBody(HttpServletRequest request) {
		return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
	}

	@Override
	public ServletInputStream getInputStream() throws IOException {
		ServletInputStream input = this.input;
		if (input == null) {
			input = new TimeLimitedInput(super.getInputStream());
			this.input = input;
		}
		return input;
	}

	@Override
	public BufferedReader getReader() throws IOException {
		BufferedReader reader = this.reader;
		if (reader == null) {
			String encoding = getCharacterEncoding();
			Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.ISO_8859_1;
			reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
			this.reader = reader;
		}
		return reader;
	}

	@Override
	public @Nullable String getParameter(String name) {
		String[] values = getParameterMap().get(name);
		return (values != null && values.length > 0) ? values[0] : null;
	}

	@Override
	public Map<String, String[]> getParameterMap() {
		Map<String, String[]> parameters = this.parameters;
		if (parameters == null) {
			if (!postsForm()) {
				return super.getParameterMap();
			}
			parameters = withForm();
			this.parameters = parameters;
		}
		return parameters;
	}

	@Override
	public Enumeration<String> getParameterNames() {
		return Collections.enumeration(getParameterMap().keySet());
	}

	@Override
	public String @Nullable [] getParameterValues(String name) {
		String[] values = getParameterMap().get(name);
		return (values != null) ? values.clone() : null;
	}

	private boolean postsForm() {
		long length = getContentLengthLong();
		String type = getContentType();
		return length > 0 && length <= this.formLimits.maxBytes() && "POST".equals(getMethod()) && type != null
				&& type.regionMatches(true, 0, "application/x-www-form-urlencoded", 0, 33);
	}

	/**
	 * Read the form through the bounded stream, then the container's parameters (the query's,
	 * or every one when something parsed the form before this request was admitted, which left
	 * nothing to read here), and the form's after them.
	 */
	private Map<String, String[]> withForm() {
		byte[] body;
		try {
			body = getInputStream().readNBytes((int) getContentLengthLong());
		}
		catch (BodyTooSlowException ex) {
			throw refused(HttpStatus.REQUEST_TIMEOUT, String.valueOf(ex.getMessage()), ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Map<String, List<String>> merged = new LinkedHashMap<>();
		super.getParameterMap().forEach((name, values) -> merged.put(name, new ArrayList<>(List.of(values))));
		String encoding = getCharacterEncoding();
		Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.ISO_8859_1;
		int count = 0;
		for (String pair : new String(body, charset).split("&")) {
			if (pair.isEmpty()) {
				continue;
			}
			if (++count > this.formLimits.maxParameters()) {
				throw refused(HttpStatus.BAD_REQUEST,
						"The form has more than " + this.formLimits.maxParameters() + " parameters", null);
			}
			int equals = pair.indexOf('=');
			try {
				String name = URLDecoder.decode((equals < 0) ? pair : pair.substring(0, equals), charset);
				String value = (equals < 0) ? "" : URLDecoder.decode(pair.substring(equals + 1), charset);
				merged.computeIfAbsent(name, (key) -> new ArrayList<>()).add(value);
			}
			catch (IllegalArgumentException ex) {
				// A pair that does not decode is skipped, as the container skips it.
			}
		}
		Map<String, String[]> parameters = new LinkedHashMap<>();
		merged.forEach((name, values) -> parameters.put(name, values.toArray(String[]::new)));
		return Collections.unmodifiableMap(parameters);
	}

	/**
	 * A failure Spring MVC answers with its status: an error response of Spring Web's own, not the
	 * reactive stack's {@code ResponseStatusException}, which this stack does not reach.
	 */
	private static ErrorResponseException refused(HttpStatus status, String detail, @Nullable Throwable cause) {
		return new ErrorResponseException(status, ProblemDetail.forStatusAndDetail(status, detail), cause);
	}

	private void checkTime() throws IOException {
		if (this.admitted.elapsedNanos() > this.limitNanos) {
			throw new BodyTooSlowException("The request's body did not arrive within " + (this.limitNanos / 1_000_000)
					+ " ms of its admission ('degradation.body.timeout', or its caller's deadline when shorter)");
		}
	}

	/**
	 * A body read too late: what was read of it is given up.
	 */
	static final class BodyTooSlowException extends IOException {

		BodyTooSlowException(String message) {
			super(message);
		}

	}

	private final class TimeLimitedInput extends ServletInputStream {

		private final ServletInputStream delegate;

		TimeLimitedInput(ServletInputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public int read() throws IOException {
			checkTime();
			long start = System.nanoTime();
			try {
				return this.delegate.read();
			}
			finally {
				TimeLimitedBodyRequest.this.admitted.waitedForBody(System.nanoTime() - start);
			}
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			checkTime();
			long start = System.nanoTime();
			try {
				return this.delegate.read(buffer, offset, length);
			}
			finally {
				TimeLimitedBodyRequest.this.admitted.waitedForBody(System.nanoTime() - start);
			}
		}

		@Override
		public int readLine(byte[] buffer, int offset, int length) throws IOException {
			checkTime();
			long start = System.nanoTime();
			try {
				return this.delegate.readLine(buffer, offset, length);
			}
			finally {
				TimeLimitedBodyRequest.this.admitted.waitedForBody(System.nanoTime() - start);
			}
		}

		@Override
		public int available() throws IOException {
			return this.delegate.available();
		}

		@Override
		public void close() throws IOException {
			this.delegate.close();
		}

		@Override
		public boolean isFinished() {
			return this.delegate.isFinished();
		}

		@Override
		public boolean isReady() {
			return this.delegate.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			this.delegate.setReadListener(listener);
		}

	}

}
