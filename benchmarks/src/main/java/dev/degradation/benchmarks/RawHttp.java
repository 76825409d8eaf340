package dev.degradation.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The overload harness's HTTP/1.1 client: a blocking socket per connection, one request at a time,
 * keep-alive unless the server says {@code Connection: close}, a read bounded by the caller's
 * deadline. It reads only what classifying an answer needs (the status, {@code X-Degraded},
 * {@code Connection}, {@code Content-Length} or chunked framing) and costs a few system calls a
 * request, so that the load generator on the same two cores takes as little of them as it can.
 * The JDK's {@code HttpClient} took more CPU than the server under test in this harness.
 */
final class RawHttp {

	private RawHttp() {
	}

	/**
	 * The bytes of a GET of a path, with the deadline header the starter reads.
	 */
	static byte[] request(URI uri, Duration deadline) {
		String path = (uri.getRawQuery() != null) ? uri.getRawPath() + "?" + uri.getRawQuery() : uri.getRawPath();
		return ("GET " + path + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
				+ "\r\nx-envoy-expected-rq-timeout-ms: " + deadline.toMillis() + "\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1);
	}

	static Connection open(URI uri, long deadlineAt) throws IOException {
		Socket socket = new Socket();
		socket.setTcpNoDelay(true);
		socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), millisLeft(deadlineAt));
		return new Connection(socket);
	}

	static void close(Connection connection) {
		if (connection != null) {
			try {
				connection.socket.close();
			}
			catch (IOException ex) {
				// Closing is all that was asked.
			}
		}
	}

	/**
	 * An executor that runs each task on a thread of its own: a virtual thread where the JDK has
	 * them (21 and later), else a cached pool of platform threads.
	 */
	static ExecutorService threadPerTask() {
		try {
			return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
		}
		catch (ReflectiveOperationException ex) {
			return Executors.newCachedThreadPool();
		}
	}

	private static int millisLeft(long deadlineAt) throws SocketTimeoutException {
		long left = TimeUnit.NANOSECONDS.toMillis(deadlineAt - System.nanoTime());
		if (left <= 0) {
			throw new SocketTimeoutException("deadline passed");
		}
		return (int) Math.min(Integer.MAX_VALUE, left);
	}

	/**
	 * What classifying an answer needs.
	 */
	record Answer(int status, boolean degraded, boolean close) {

	}

	/**
	 * One connection, one request at a time.
	 */
	static final class Connection {

		private final Socket socket;

		private final InputStream in;

		private final OutputStream out;

		private final byte[] buffer = new byte[16 * 1024];

		private int start;

		private int end;

		Connection(Socket socket) throws IOException {
			this.socket = socket;
			this.in = socket.getInputStream();
			this.out = socket.getOutputStream();
		}

		Answer exchange(byte[] request, long deadlineAt) throws IOException {
			this.out.write(request);
			this.out.flush();
			String statusLine = line(deadlineAt);
			if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.")) {
				throw new IOException("not an HTTP answer: " + statusLine);
			}
			int status = Integer.parseInt(statusLine.substring(9, 12));
			boolean degraded = false;
			boolean close = statusLine.startsWith("HTTP/1.0");
			long length = -1;
			boolean chunked = false;
			for (String header = line(deadlineAt); !header.isEmpty(); header = line(deadlineAt)) {
				int colon = header.indexOf(':');
				if (colon < 0) {
					continue;
				}
				String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
				String value = header.substring(colon + 1).trim();
				switch (name) {
					case "x-degraded" -> degraded = true;
					case "connection" -> close = value.equalsIgnoreCase("close");
					case "content-length" -> length = Long.parseLong(value);
					case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
					default -> {
					}
				}
			}
			if (chunked) {
				for (long size = chunkSize(deadlineAt); size > 0; size = chunkSize(deadlineAt)) {
					skip(size + 2, deadlineAt);
				}
				// The trailer section ends with an empty line.
				while (!line(deadlineAt).isEmpty()) {
					// Trailers are not needed.
				}
			}
			else if (length > 0) {
				skip(length, deadlineAt);
			}
			else if (length < 0 && status != 204 && status != 304) {
				close = true;
			}
			return new Answer(status, degraded, close);
		}

		private long chunkSize(long deadlineAt) throws IOException {
			String line = line(deadlineAt);
			int extension = line.indexOf(';');
			return Long.parseLong((extension >= 0) ? line.substring(0, extension).trim() : line.trim(), 16);
		}

		private String line(long deadlineAt) throws IOException {
			StringBuilder line = new StringBuilder();
			while (true) {
				if (this.start == this.end) {
					fill(deadlineAt);
				}
				byte b = this.buffer[this.start++];
				if (b == '\n') {
					int length = line.length();
					return (length > 0 && line.charAt(length - 1) == '\r') ? line.substring(0, length - 1)
							: line.toString();
				}
				line.append((char) (b & 0xff));
			}
		}

		private void skip(long count, long deadlineAt) throws IOException {
			long left = count;
			while (left > 0) {
				if (this.start == this.end) {
					fill(deadlineAt);
				}
				int taken = (int) Math.min(left, this.end - this.start);
				this.start += taken;
				left -= taken;
			}
		}

		private void fill(long deadlineAt) throws IOException {
			this.socket.setSoTimeout(millisLeft(deadlineAt));
			int read = this.in.read(this.buffer);
			if (read < 0) {
				throw new IOException("connection closed by the server");
			}
			this.start = 0;
			this.end = read;
		}

	}

}
