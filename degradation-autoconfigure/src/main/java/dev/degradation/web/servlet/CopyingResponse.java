package dev.degradation.web.servlet;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.util.List;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import dev.degradation.web.AnswerCopy;
import dev.degradation.web.StaleAnswers;

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
	 * Offer the answer to the route's copies, which keep it if another request may be given it
	 * ({@link StaleAnswers.RouteCopies#offer}).
	 */
	void storeIfShareable(HttpServletRequest request) throws IOException {
		if (this.writer != null) {
			this.writer.flush();
		}
		if (request.isAsyncStarted() || startedASession(request)) {
			return;
		}
		byte[] body = (this.stream == null) ? new byte[0] : this.stream.copy.body();
		this.copies.offer(this.key, getStatus(), this::headerValues, body);
	}

	/**
	 * Whether the request started a session: its answer is that session's (a form's CSRF token, a
	 * cart), whether or not the session's cookie is among the answer's headers yet. A servlet
	 * container adds the cookie as the session starts; Spring Session writes it only as the answer
	 * commits, after this look. Asked after the application's work, of a request kept under a
	 * key: a session the application loaded is not looked up again, and one it did not is looked
	 * up only for a route whose copies vary by the cookie that names it.
	 */
	private static boolean startedASession(HttpServletRequest request) {
		try {
			HttpSession session = request.getSession(false);
			return session != null && session.isNew();
		}
		catch (IllegalStateException ex) {
			// Invalidated while the request was served: it was a session's, keep nothing.
			return true;
		}
	}

	private List<String> headerValues(String name) {
		if (name.equalsIgnoreCase("Content-Type")) {
			String contentType = getContentType();
			return (contentType != null) ? List.of(contentType) : List.of();
		}
		return List.copyOf(getHeaders(name));
	}

	/**
	 * Writes through to the container's stream and keeps a bounded copy ({@link AnswerCopy}).
	 */
	private static final class CopyingStream extends ServletOutputStream {

		private final ServletOutputStream target;

		private final AnswerCopy copy;

		CopyingStream(ServletOutputStream target, int limit) {
			this.target = target;
			this.copy = new AnswerCopy(limit);
		}

		@Override
		public void write(int b) throws IOException {
			this.target.write(b);
			this.copy.append(b);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			this.target.write(b, off, len);
			this.copy.append(b, off, len);
		}

		private void restart() {
			this.copy.restart();
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
