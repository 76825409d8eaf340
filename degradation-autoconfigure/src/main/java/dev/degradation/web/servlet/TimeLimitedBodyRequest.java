package dev.degradation.web.servlet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.jspecify.annotations.Nullable;

import dev.degradation.overload.Admission.Admitted;

/**
 * An admitted request whose body must have arrived within a time of its admission: a read after
 * that fails, so that a body that trickles in cannot hold its place for longer than its caller
 * waits. A read that blocks with nothing arriving is bounded by the container's own read timeout
 * (Tomcat's {@code connection-timeout}). The time spent waiting in a read is the caller's: it is
 * no part of the request's latency sample.
 */
final class TimeLimitedBodyRequest extends HttpServletRequestWrapper {

	private final Admitted admitted;

	private final long limitNanos;

	private @Nullable ServletInputStream input;

	private @Nullable BufferedReader reader;

	TimeLimitedBodyRequest(HttpServletRequest request, Admitted admitted, long limitNanos) {
		super(request);
		this.admitted = admitted;
		this.limitNanos = limitNanos;
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
