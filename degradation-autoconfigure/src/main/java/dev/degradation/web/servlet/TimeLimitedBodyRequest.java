package dev.degradation.web.servlet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.Part;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ResponseStatus;

import dev.degradation.overload.Admission.Admitted;

/**
 * An admitted request whose body must have arrived within a time of its admission: a read after
 * that fails, so that a body that trickles in cannot hold its place for longer than its caller
 * waits. A read that blocks with nothing arriving is bounded by the container's own read timeout
 * (Tomcat's {@code connection-timeout}). The time spent waiting in a read is the caller's: it is
 * no part of the request's latency sample.
 *
 * <p>A form ({@code application/x-www-form-urlencoded}, posted with a declared length or chunked)
 * is read here too, through the same bounded stream, when the application asks for a parameter:
 * the container parses a form from its own stream, past any wrapper, so a form that trickled in
 * held its place for as long as its caller liked. The container then keeps the query's parameters
 * (it parses no body a wrapper read), and the form's follow them, as the container orders them.
 *
 * <p>A multipart body the container parses itself, from its own stream, when the application asks
 * for its parts ({@link #getParts()}, as Spring's {@code StandardServletMultipartResolver} does) or
 * for a multipart form's parameters; no container's parser can portably be handed the bytes read
 * here instead. So while it parses, a timer ({@link BodyTimer}) gives the place back at the bound,
 * as a request that ended in an error gives it back (no sample; the request's own end changes
 * nothing after it), and a parse that returns after the bound fails with {@code 408}. The request
 * thread still waits for the body, as it would in the container's own read, but no place does.
 */
final class TimeLimitedBodyRequest extends HttpServletRequestWrapper {

	private final Admitted admitted;

	private final long limitNanos;

	private final FormLimits formLimits;

	private final BodyTimer timer;

	/** Whether the container read the body itself (its parts) within the bound. */
	private volatile boolean readByContainer;

	private @Nullable ServletInputStream input;

	private @Nullable BufferedReader reader;

	private @Nullable Map<String, String[]> parameters;

	TimeLimitedBodyRequest(HttpServletRequest request, Admitted admitted, long limitNanos, FormLimits formLimits,
			BodyTimer timer) {
		super(request);
		this.admitted = admitted;
		this.limitNanos = limitNanos;
		this.formLimits = formLimits;
		this.timer = timer;
	}

	/**
	 * Whether a request may carry a body worth bounding: it declares a length, or is chunked, or
	 * came over a protocol that frames a body by itself. Over HTTP/1.x the headers frame the body,
	 * so a request that declares neither a length nor a transfer coding has none, and is let
	 * through as it came, with nothing allocated for it. Over HTTP/2 (and HTTP/3) a body is DATA
	 * frames, which headers announce with no length and never a transfer coding, so there only a
	 * declared length of zero says that there is none (Tomcat declares none for a request whose
	 * headers end its stream, so every such request is bounded: a wrapper, and nothing read).
	 * The protocol is a string the server keeps (a constant on Tomcat and Jetty), so over
	 * HTTP/1.x a request without a body costs one call more, and no allocation.
	 * @param request the request
	 * @return whether it may
	 */
	static boolean mayHaveBody(HttpServletRequest request) {
		long length = request.getContentLengthLong();
		return length > 0 || request.getHeader("Transfer-Encoding") != null
				|| (length < 0 && !request.getProtocol().startsWith("HTTP/1."));
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
	public Collection<Part> getParts() throws IOException, ServletException {
		return readByContainer(super::getParts);
	}

	@Override
	public @Nullable Part getPart(String name) throws IOException, ServletException {
		return readByContainer(() -> super.getPart(name));
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
			if (postsForm()) {
				parameters = withForm();
			}
			else if (isMultipart()) {
				// The container parses a multipart form's fields as parameters, from its parts.
				try {
					parameters = readByContainer(super::getParameterMap);
				}
				catch (IOException | ServletException ex) {
					// Not of the container's parameters, which throw neither.
					throw new IllegalStateException(ex);
				}
			}
			else {
				return super.getParameterMap();
			}
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

	/**
	 * Whether the request posts a form read here: of a declared length within the server's limit,
	 * or chunked (of no declared length), whose limit is checked as it is read.
	 */
	private boolean postsForm() {
		long length = getContentLengthLong();
		String type = getContentType();
		return (length < 0 || length <= this.formLimits.maxBytes()) && "POST".equals(getMethod()) && type != null
				&& type.regionMatches(true, 0, "application/x-www-form-urlencoded", 0, 33);
	}

	private boolean isMultipart() {
		String type = getContentType();
		return type != null && type.regionMatches(true, 0, "multipart/", 0, 10);
	}

	/**
	 * Let the container read the body itself, and give the place back if its read outlasts the
	 * bound: a read still under way then, or one that returns after the bound, fails with
	 * {@code 408}. Once the container has read the body in time, what it read is served as it is.
	 */
	private <T> T readByContainer(ContainerRead<T> read) throws IOException, ServletException {
		if (this.readByContainer) {
			return read.read();
		}
		long left = this.limitNanos - this.admitted.elapsedNanos();
		if (left <= 0) {
			throw tooSlow(null);
		}
		ScheduledFuture<?> release = this.timer.schedule(this.admitted::onIgnore, left);
		long start = System.nanoTime();
		T value;
		try {
			value = read.read();
		}
		catch (IOException | ServletException | RuntimeException ex) {
			if (cutOff(release, start)) {
				throw tooSlow(ex);
			}
			throw ex;
		}
		if (cutOff(release, start)) {
			throw tooSlow(null);
		}
		this.readByContainer = true;
		return value;
	}

	/**
	 * Return whether the container's read ended past the bound, once it ended: the release ran (or
	 * is running: it can no longer be cancelled), or is about to.
	 */
	private boolean cutOff(@Nullable ScheduledFuture<?> release, long start) {
		this.admitted.waitedForBody(System.nanoTime() - start);
		boolean released = release != null && !release.cancel(false);
		return released || this.admitted.elapsedNanos() > this.limitNanos;
	}

	/**
	 * Read the form through the bounded stream, then the container's parameters (the query's,
	 * or every one when something parsed the form before this request was admitted, which left
	 * nothing to read here), and the form's after them.
	 */
	private Map<String, String[]> withForm() {
		long length = getContentLengthLong();
		int most = this.formLimits.maxBytes();
		byte[] body;
		try {
			// A chunked form is read to its end, and one byte past the server's limit to see it.
			body = getInputStream().readNBytes((length >= 0) ? (int) length : most + 1);
		}
		catch (BodyTooSlowException ex) {
			throw tooSlow(ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		if (body.length > most) {
			// Read already, it cannot be left to the server, which would refuse it too.
			throw refused(HttpStatus.CONTENT_TOO_LARGE, "The form is larger than " + most + " bytes", null);
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

	private BodyTooSlowResponse tooSlow(@Nullable Throwable cause) {
		return new BodyTooSlowResponse(tooSlowDetail(), cause);
	}

	private String tooSlowDetail() {
		return "The request's body did not arrive within " + (this.limitNanos / 1_000_000)
				+ " ms of its admission ('degradation.body.timeout', or its caller's deadline when shorter)";
	}

	private void checkTime() throws IOException {
		if (this.admitted.elapsedNanos() > this.limitNanos) {
			throw new BodyTooSlowException(tooSlowDetail());
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

	/**
	 * A body that did not arrive in time, answered {@code 408} wherever Spring MVC meets it: as it
	 * is, or as the cause of the {@code MultipartException} in which Spring's multipart request
	 * wraps any failure of {@link #getParts()}, where Spring MVC finds its status by its
	 * annotation.
	 */
	@ResponseStatus(HttpStatus.REQUEST_TIMEOUT)
	static final class BodyTooSlowResponse extends ErrorResponseException {

		BodyTooSlowResponse(String detail, @Nullable Throwable cause) {
			super(HttpStatus.REQUEST_TIMEOUT, ProblemDetail.forStatusAndDetail(HttpStatus.REQUEST_TIMEOUT, detail),
					cause);
		}

	}

	/**
	 * A read of the body the container does itself.
	 */
	@FunctionalInterface
	private interface ContainerRead<T> {

		T read() throws IOException, ServletException;

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
