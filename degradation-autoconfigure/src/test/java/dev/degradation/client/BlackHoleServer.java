package dev.degradation.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A dependency on loopback that accepts every connection, reads every request and never answers,
 * on one thread of its own whatever the number of connections (a stub with a thread per hanging
 * request would add the very threads a load test counts). A connection its client closes is
 * closed too. {@linkplain #headersThenHang() Another} answers the headers of a 200 and the
 * first byte of its body, then hangs: a dependency that stalls in the middle of its answer.
 */
final class BlackHoleServer implements AutoCloseable {

	private final ServerSocketChannel server;

	private final Selector selector;

	private final Thread thread;

	private final Queue<SocketChannel> open = new ConcurrentLinkedQueue<>();

	final AtomicInteger connections = new AtomicInteger();

	/** What a connection is answered once it sent something, or {@code null} for nothing. */
	private final byte[] partialAnswer;

	private BlackHoleServer(byte[] partialAnswer) throws IOException {
		this.partialAnswer = partialAnswer;
		this.selector = Selector.open();
		this.server = ServerSocketChannel.open();
		this.server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
		this.server.configureBlocking(false);
		this.server.register(this.selector, SelectionKey.OP_ACCEPT);
		this.thread = new Thread(this::serve, "black-hole-server");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	static BlackHoleServer start() {
		return start(null);
	}

	/**
	 * Start a dependency that sends the headers of a 200 with a JSON body of 1,000 bytes, the
	 * body's first byte, and nothing more.
	 * @return the running dependency
	 */
	static BlackHoleServer headersThenHang() {
		return start(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
			.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
	}

	private static BlackHoleServer start(byte[] partialAnswer) {
		try {
			return new BlackHoleServer(partialAnswer);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	String url() {
		return "http://127.0.0.1:" + this.server.socket().getLocalPort();
	}

	private void serve() {
		ByteBuffer discarded = ByteBuffer.allocate(8192);
		while (this.selector.isOpen()) {
			try {
				this.selector.select(1000);
				if (!this.selector.isOpen()) {
					return;
				}
				for (SelectionKey key : this.selector.selectedKeys()) {
					if (key.isValid() && key.isAcceptable()) {
						SocketChannel connection = this.server.accept();
						if (connection != null) {
							this.connections.incrementAndGet();
							this.open.add(connection);
							connection.configureBlocking(false);
							connection.register(this.selector, SelectionKey.OP_READ);
						}
					}
					else if (key.isValid() && key.isReadable()) {
						SocketChannel connection = (SocketChannel) key.channel();
						discarded.clear();
						int read = read(connection, discarded);
						if (read < 0) {
							key.cancel();
							this.open.remove(connection);
							connection.close();
						}
						else if (read > 0 && this.partialAnswer != null && key.attachment() == null) {
							// Small enough for the socket's buffer: written at once.
							key.attach(Boolean.TRUE);
							connection.write(ByteBuffer.wrap(this.partialAnswer));
						}
					}
				}
				this.selector.selectedKeys().clear();
			}
			catch (IOException | RuntimeException ex) {
				// Closed, or one connection failed: the others go on hanging.
			}
		}
	}

	private static int read(SocketChannel connection, ByteBuffer buffer) {
		try {
			return connection.read(buffer);
		}
		catch (IOException ex) {
			return -1;
		}
	}

	@Override
	public void close() {
		try {
			this.selector.close();
			this.thread.join(5000);
			for (SocketChannel connection : this.open) {
				connection.close();
			}
			this.server.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
