package dev.degradation.web.servlet;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.jspecify.annotations.Nullable;

/**
 * A request whose body was read whole before it was decided, so that a body that arrives slowly
 * holds a request thread but never a place in admission ({@link #read}); the application reads
 * the bytes that arrived.
 */
final class ArrivedBodyRequest extends HttpServletRequestWrapper {

	private final ServletInputStream input;

	private @Nullable BufferedReader reader;

	private ArrivedBodyRequest(HttpServletRequest request, byte[] body) {
		super(request);
		this.input = new ArrivedInput(new ByteArrayInputStream(body));
	}

	/**
	 * Read a request's body of a declared length, at most the given time from now.
	 * @param request the request
	 * @param length its declared length
	 * @param timeoutNanos how long the body may take to arrive
	 * @return the request with its body read, or {@code null} when the body did not arrive in
	 * time (what arrived of it is given up)
	 * @throws IOException if the connection fails or the body ends before its declared length
	 */
	static @Nullable ArrivedBodyRequest read(HttpServletRequest request, int length, long timeoutNanos)
			throws IOException {
		long end = System.nanoTime() + timeoutNanos;
		byte[] body = new byte[length];
		ServletInputStream input = request.getInputStream();
		int read = 0;
		// A read that blocks with nothing arriving is bounded by the container's own read timeout.
		while (read < length) {
			int count = input.read(body, read, length - read);
			if (count < 0) {
				throw new IOException("The request's body ended after " + read + " of " + length + " bytes");
			}
			read += count;
			if (read < length && System.nanoTime() - end > 0) {
				return null;
			}
		}
		return new ArrivedBodyRequest(request, body);
	}

	@Override
	public ServletInputStream getInputStream() {
		return this.input;
	}

	@Override
	public BufferedReader getReader() {
		BufferedReader reader = this.reader;
		if (reader == null) {
			String encoding = getCharacterEncoding();
			Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.ISO_8859_1;
			reader = new BufferedReader(new InputStreamReader(this.input, charset));
			this.reader = reader;
		}
		return reader;
	}

	private static final class ArrivedInput extends ServletInputStream {

		private final ByteArrayInputStream body;

		ArrivedInput(ByteArrayInputStream body) {
			this.body = body;
		}

		@Override
		public int read() {
			return this.body.read();
		}

		@Override
		public int read(byte[] buffer, int offset, int length) {
			return this.body.read(buffer, offset, length);
		}

		@Override
		public int available() {
			return this.body.available();
		}

		@Override
		public boolean isFinished() {
			return this.body.available() == 0;
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setReadListener(ReadListener listener) {
			try {
				listener.onDataAvailable();
				listener.onAllDataRead();
			}
			catch (IOException ex) {
				listener.onError(ex);
			}
		}

	}

}
