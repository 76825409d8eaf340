package dev.degradation.web.servlet;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.degradation.web.RequestLifecycle;

/**
 * What still arrives of a request's body that nobody will use, read and let go, within the bounds the starter keeps ({@link RequestLifecycle#UNREAD_BODY_BYTES},
 * {@link RequestLifecycle#UNREAD_BODY_TIME}), after a cheap answer or a refused write to the
 * endpoint, without holding a thread: what has arrived is read at once; for a body still on its
 * way the answer is sent, the request goes on asynchronously while a read listener takes the body's bytes, and it completes at
 * the body's end or at either bound, whichever comes first. A connection closed on a body not read
 * is reset, and the reset discards the answer before a caller still sending its body reads it:
 * Tomcat swallows such a body itself, Jetty closes the connection on it. The reactive stack's
 * counterpart is {@code dev.degradation.web.reactive.UnreadBody}.
 */
public final class UnreadBody {

	private static final long MAX_BYTES = RequestLifecycle.UNREAD_BODY_BYTES;

	private static final long TIME_MILLIS = RequestLifecycle.UNREAD_BODY_TIME.toMillis();

	private UnreadBody() {
	}

	/**
	 * Let what still arrives of a request's body go, once its answer is written; a request of no
	 * body, one whose body was read, or one that cannot go on asynchronously is left as it is. A
	 * caller that left while sending ends it.
	 * @param request the request, as the filter was given it
	 * @param response the response, its answer written
	 * @throws IOException if the answer cannot be sent to a body's caller still there
	 */
	public static void letGo(HttpServletRequest request, HttpServletResponse response) throws IOException {
		letGo(request, response, false);
	}

	/**
	 * Let what still arrives of a request's body go, once its answer is written, as
	 * {@link #letGo(HttpServletRequest, HttpServletResponse)} does; where the request cannot go on
	 * asynchronously (a filter before this one does not support it), the body is read on this
	 * thread instead, within the same bounds, unless it is declared larger than is ever read. For
	 * rare requests only, such as an operator's refused write: under load, a thread per request.
	 * @param request the request, as the filter was given it
	 * @param response the response, its answer written
	 * @throws IOException if the answer cannot be sent to a body's caller still there
	 */
	public static void letGoHoldingThreadIfNeeded(HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		letGo(request, response, true);
	}

	private static void letGo(HttpServletRequest request, HttpServletResponse response, boolean mayHoldThread)
			throws IOException {
		if (!TimeLimitedBodyRequest.mayHaveBody(request) || request.isAsyncStarted()) {
			return;
		}
		boolean asynchronous = request.isAsyncSupported();
		if (!asynchronous && (!mayHoldThread || request.getContentLengthLong() > MAX_BYTES)) {
			return;
		}
		// The container's own stream: a wrapper may replay a body the starter read ahead.
		ServletRequest container = request;
		while (container instanceof ServletRequestWrapper wrapper) {
			container = wrapper.getRequest();
		}
		ServletInputStream input;
		try {
			input = container.getInputStream();
		}
		catch (IllegalStateException ex) {
			// Read as characters by whoever read it: it was read.
			return;
		}
		if (!asynchronous) {
			response.flushBuffer();
			readHere(input);
			return;
		}
		// What has arrived is read at once; only a body still on its way is waited for.
		long length = request.getContentLengthLong();
		long read = 0;
		// Allocated only for a body with bytes still to read: most cheap answers have none.
		byte[] buffer = null;
		try {
			while (read < MAX_BYTES && !input.isFinished() && input.available() > 0) {
				if (buffer == null) {
					buffer = new byte[8192];
				}
				int got = input.read(buffer, 0, Math.min(buffer.length, input.available()));
				if (got < 0) {
					return;
				}
				read += got;
			}
		}
		catch (IOException ex) {
			// The caller left while sending: nothing more to let go, and no one to answer.
			return;
		}
		if (input.isFinished() || read >= MAX_BYTES || (length >= 0 && read >= length)) {
			return;
		}
		response.flushBuffer();
		AsyncContext async = request.startAsync(request, response);
		async.setTimeout(TIME_MILLIS);
		Discarding discarding = new Discarding(input, async);
		async.addListener(discarding);
		try {
			input.setReadListener(discarding);
		}
		catch (UnsupportedOperationException | IllegalStateException ex) {
			// A stream that cannot be read without blocking (a test's mock has no connection).
			discarding.complete();
		}
	}

	private static void readHere(ServletInputStream input) {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIME_MILLIS);
		byte[] buffer = new byte[8192];
		long left = MAX_BYTES;
		try {
			// A read that waits with nothing arriving is bounded by the container's read time-out.
			while (left > 0 && deadline - System.nanoTime() > 0) {
				int read = input.read(buffer, 0, (int) Math.min(buffer.length, left));
				if (read < 0) {
					return;
				}
				left -= read;
			}
		}
		catch (IOException ex) {
			// The caller left: nothing more to let go.
		}
	}

	/**
	 * Reads a body as it arrives and lets it go; ends the request at its end, at the bound, or at
	 * the time-out.
	 */
	private static final class Discarding implements ReadListener, AsyncListener {

		private final ServletInputStream input;

		private final AsyncContext async;

		private final byte[] buffer = new byte[8192];

		private final AtomicBoolean completed = new AtomicBoolean();

		private long left = MAX_BYTES;

		Discarding(ServletInputStream input, AsyncContext async) {
			this.input = input;
			this.async = async;
		}

		@Override
		public void onDataAvailable() throws IOException {
			while (this.input.isReady()) {
				int read = this.input.read(this.buffer);
				if (read < 0) {
					return;
				}
				this.left -= read;
				if (this.left <= 0) {
					complete();
					return;
				}
			}
		}

		@Override
		public void onAllDataRead() {
			complete();
		}

		@Override
		public void onError(Throwable failure) {
			complete();
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			complete();
		}

		@Override
		public void onError(AsyncEvent event) {
			complete();
		}

		@Override
		public void onComplete(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
		}

		private void complete() {
			if (this.completed.compareAndSet(false, true)) {
				try {
					this.async.complete();
				}
				catch (IllegalStateException ex) {
					// Completed by the container already (the caller left).
				}
			}
		}

	}

}
