package dev.degradation.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.util.Locale;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

/**
 * The response of a live {@code GET} request of a {@code stale} route: the body goes to the client
 * as it is written, and a copy of it (up to the store's largest answer) is kept, to be stored once
 * the handler is done if the answer may be served to another request. Only the requests of
 * {@code stale} routes pay for it.
 */
final class CopyingResponse extends HttpServletResponseWrapper {

	private final StaleAnswers.RouteCopies copies;

	private final String key;

	private @Nullable CopyingStream stream;

	private @Nullable PrintWriter writer;

	CopyingResponse(HttpServletResponse response, StaleAnswers.RouteCopies copies, String key) {
		super(response);
		this.copies = copies;
		this.key = key;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (this.writer != null) {
			throw new IllegalStateException("getWriter() has already been called for this response");
		}
		return stream();
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		if (this.writer == null) {
			if (this.stream != null) {
				throw new IllegalStateException("getOutputStream() has already been called for this response");
			}
			this.writer = new PrintWriter(new OutputStreamWriter(stream(), getCharacterEncoding()));
		}
		return this.writer;
	}

	private CopyingStream stream() throws IOException {
		if (this.stream == null) {
			this.stream = new CopyingStream(super.getOutputStream(), this.copies.maxAnswerBytes());
		}
		return this.stream;
	}

	@Override
	public void flushBuffer() throws IOException {
		if (this.writer != null) {
			this.writer.flush();
		}
		super.flushBuffer();
	}

	@Override
	public void resetBuffer() {
		super.resetBuffer();
		if (this.stream != null) {
			this.stream.restart();
		}
	}

	@Override
	public void reset() {
		super.reset();
		if (this.stream != null) {
			this.stream.restart();
		}
	}

	/**
	 * Store the answer if it is a complete good answer that another request may be given: a
	 * {@code 2xx} that sets no cookie, is not {@code no-store}, is {@code private} only if the
	 * route varies by a request header, and is not itself a partial answer.
	 */
	void storeIfShareable(HttpServletRequest request) throws IOException {
		if (this.writer != null) {
			this.writer.flush();
		}
		int status = getStatus();
		if (status < 200 || status >= 300 || request.isAsyncStarted()) {
			return;
		}
		if (this.stream != null && this.stream.overflowed) {
			this.copies.refuse();
			return;
		}
		if (getHeader("Set-Cookie") != null || getHeader(DegradationHeaders.DEGRADED) != null
				|| getHeader("X-Degraded-Parts") != null) {
			return;
		}
		for (String cacheControl : getHeaders("Cache-Control")) {
			String directives = cacheControl.toLowerCase(Locale.ROOT);
			if (directives.contains("no-store") || (directives.contains("private") && !this.copies.variesByHeaders())) {
				return;
			}
		}
		byte[] body = (this.stream != null) ? this.stream.copy.toByteArray() : new byte[0];
		this.copies.store(this.key, status, getContentType(), body);
	}

	/**
	 * Writes through to the container's stream and keeps a copy until it would exceed its limit.
	 */
	private static final class CopyingStream extends ServletOutputStream {

		private final ServletOutputStream target;

		private final int limit;

		private final ByteArrayOutputStream copy = new ByteArrayOutputStream(256);

		private boolean overflowed;

		CopyingStream(ServletOutputStream target, int limit) {
			this.target = target;
			this.limit = limit;
		}

		@Override
		public void write(int b) throws IOException {
			this.target.write(b);
			if (!this.overflowed) {
				if (this.copy.size() + 1 > this.limit) {
					overflow();
				}
				else {
					this.copy.write(b);
				}
			}
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			this.target.write(b, off, len);
			if (!this.overflowed) {
				if (this.copy.size() + len > this.limit) {
					overflow();
				}
				else {
					this.copy.write(b, off, len);
				}
			}
		}

		private void restart() {
			this.copy.reset();
			this.overflowed = false;
		}

		private void overflow() {
			// Too large to keep: stop copying and free what was copied.
			this.overflowed = true;
			this.copy.reset();
		}

		@Override
		public void flush() throws IOException {
			this.target.flush();
		}

		@Override
		public void close() throws IOException {
			this.target.close();
		}

		@Override
		public boolean isReady() {
			return this.target.isReady();
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			this.target.setWriteListener(listener);
		}

	}

}
