package dev.degradation.web.servlet;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import dev.degradation.overload.Admission.Admitted;

/**
 * The answer of an admitted request, whose caller may read it slowly: a write that waits for room
 * in the connection waits for the caller, not for the service. That time is no part of the
 * request's latency sample, and once the caller has kept the answer's writes waiting for longer
 * than the body time-out (the operator's bound, never the caller's deadline), the request gives
 * its place back: the rest of the
 * answer is still written, whole, without a place. A caller that does not read blocks the
 * request's thread in its write, so an answer large enough to fill the connection's buffers is
 * watched from another thread ({@link BodyTimer}); a smaller one never waits long enough to
 * need it. An answer written through {@link #getWriter()} (a view's, rather than a message
 * converter's) is timed the same way, each call passed straight on to the container's own writer:
 * a buffer of the wrapper's would hold what the container flushes as the answer ends.
 */
final class TimeLimitedAnswerResponse extends HttpServletResponseWrapper {

	/**
	 * How much of an answer may be written before its writes are watched: about what the
	 * container's buffer and a connection's first send buffer take without a caller reading.
	 */
	static final int WATCHED_AFTER_BYTES = 32 * 1024;

	/**
	 * The shortest time between two looks at one answer: a short body time-out makes the bound
	 * short, and a look at every turn of it would let a long answer keep the timer's one thread
	 * busy. A place is given back this much later at most.
	 */
	static final long LOOK_AGAIN_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private final Admitted admitted;

	private final long limitNanos;

	private final BodyTimer watch;

	private @Nullable TimedOutput output;

	private @Nullable PrintWriter writer;

	/** Bytes written so far, by the one writer of the answer. */
	private long written;

	/** Time the writes waited so far, by the one writer; read by the watch. */
	private volatile long waitedNanos;

	/** When the write in progress began, or {@code 0} when none is. */
	private volatile long writingSince;

	private volatile boolean finished;

	/** Whether the answer's writes are watched, by the one writer. */
	private boolean watched;

	private volatile @Nullable ScheduledFuture<?> check;

	TimeLimitedAnswerResponse(HttpServletResponse response, Admitted admitted, long limitNanos, BodyTimer watch) {
		super(response);
		this.admitted = admitted;
		this.limitNanos = limitNanos;
		this.watch = watch;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		return output();
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		PrintWriter writer = this.writer;
		if (writer == null) {
			writer = new TimedPrintWriter(super.getWriter());
			this.writer = writer;
		}
		return writer;
	}

	@Override
	public void flushBuffer() throws IOException {
		long start = began(0);
		try {
			super.flushBuffer();
		}
		finally {
			ended(start);
		}
	}

	@Override
	public void reset() {
		super.reset();
		this.output = null;
		this.writer = null;
	}

	@Override
	public void resetBuffer() {
		super.resetBuffer();
		this.output = null;
		this.writer = null;
	}

	/**
	 * The answer is written, or the request ended: nothing is watched any more.
	 */
	void finished() {
		this.finished = true;
		ScheduledFuture<?> check = this.check;
		if (check != null) {
			check.cancel(false);
		}
	}

	private TimedOutput output() throws IOException {
		TimedOutput output = this.output;
		if (output == null) {
			output = new TimedOutput(super.getOutputStream());
			this.output = output;
		}
		return output;
	}

	/** A write of some bytes begins: watch the answer once it may fill the connection. */
	private long began(int length) {
		this.written += length;
		if (this.written > WATCHED_AFTER_BYTES && !this.watched && !this.finished) {
			this.watched = true;
			this.check = this.watch.schedule(this::check, this.limitNanos - this.waitedNanos);
		}
		long start = System.nanoTime();
		this.writingSince = start | 1;
		return start;
	}

	private void ended(long start) {
		long took = System.nanoTime() - start;
		this.writingSince = 0;
		this.waitedNanos += took;
		this.admitted.waitedForCaller(took);
	}

	/**
	 * On the watch's thread: give the place back once the caller has kept the writes waiting
	 * for as long as a body may take to arrive, or look again when it would have.
	 */
	private void check() {
		if (this.finished) {
			return;
		}
		long since = this.writingSince;
		long waited = this.waitedNanos + ((since != 0) ? System.nanoTime() - since : 0);
		if (waited >= this.limitNanos) {
			this.admitted.onIgnore();
		}
		else {
			this.check = this.watch.schedule(this::check,
					Math.max(this.limitNanos - waited, LOOK_AGAIN_AFTER_NANOS));
		}
	}

	/**
	 * The answer's stream, timing each call that may wait for the caller.
	 */
	private final class TimedOutput extends ServletOutputStream {

		private final ServletOutputStream delegate;

		TimedOutput(ServletOutputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(int b) throws IOException {
			long start = began(1);
			try {
				this.delegate.write(b);
			}
			finally {
				ended(start);
			}
		}

		@Override
		public void write(byte[] buffer, int offset, int length) throws IOException {
			long start = began(length);
			try {
				this.delegate.write(buffer, offset, length);
			}
			finally {
				ended(start);
			}
		}

		@Override
		public void flush() throws IOException {
			long start = began(0);
			try {
				this.delegate.flush();
			}
			finally {
				ended(start);
			}
		}

		@Override
		public void close() throws IOException {
			long start = began(0);
			try {
				this.delegate.close();
			}
			finally {
				ended(start);
			}
		}

		@Override
		public boolean isReady() {
			return this.delegate.isReady();
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			this.delegate.setWriteListener(listener);
		}

	}

	/**
	 * The answer's print writer, over the timed writer: a PrintWriter over a Writer adds no buffer
	 * of its own. The container's writer keeps a failed write to itself, as a print writer does, so
	 * a caller that left is seen through its {@link #checkError()}: a servlet that streams until
	 * then would otherwise write on for nobody, and keep its place.
	 */
	private final class TimedPrintWriter extends PrintWriter {

		private final PrintWriter container;

		TimedPrintWriter(PrintWriter container) {
			super(new TimedWriter(container));
			this.container = container;
		}

		@Override
		public boolean checkError() {
			return super.checkError() || this.container.checkError();
		}

	}

	/**
	 * The answer's writer, timing each call that may wait for the caller.
	 */
	private final class TimedWriter extends Writer {

		private final Writer delegate;

		TimedWriter(Writer delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(int c) throws IOException {
			long start = began(1);
			try {
				this.delegate.write(c);
			}
			finally {
				ended(start);
			}
		}

		@Override
		public void write(char[] buffer, int offset, int length) throws IOException {
			long start = began(length);
			try {
				this.delegate.write(buffer, offset, length);
			}
			finally {
				ended(start);
			}
		}

		@Override
		public void write(String text, int offset, int length) throws IOException {
			long start = began(length);
			try {
				this.delegate.write(text, offset, length);
			}
			finally {
				ended(start);
			}
		}

		@Override
		public void flush() throws IOException {
			long start = began(0);
			try {
				this.delegate.flush();
			}
			finally {
				ended(start);
			}
		}

		@Override
		public void close() throws IOException {
			long start = began(0);
			try {
				this.delegate.close();
			}
			finally {
				ended(start);
			}
		}

	}

}
