package dev.degradation.shapes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import com.sun.net.httpserver.HttpServer;

/**
 * A dependency of a shape's application, on the JDK's HTTP server on 127.0.0.1: its health URL
 * ({@code /healthz}) answers 200 until the test makes it fail, then 500, so the starter's real
 * probes judge it failed. It can also be stopped, so that its port refuses connections as a
 * killed instance's does, and started again on the same port (where discovery still lists it).
 */
public final class LoopbackDependency implements AutoCloseable {

	private final int port;

	private volatile boolean failing;

	private HttpServer server;

	private LoopbackDependency(int port) {
		this.server = bind(port);
		this.port = this.server.getAddress().getPort();
	}

	/**
	 * Start a healthy dependency on a free port of 127.0.0.1.
	 * @return the running dependency
	 */
	public static LoopbackDependency start() {
		return new LoopbackDependency(0);
	}

	/**
	 * Return the dependency's base URL, without a trailing slash.
	 * @return the base URL
	 */
	public String url() {
		return "http://127.0.0.1:" + this.port;
	}

	/**
	 * Make the health URL answer 500 (or 200 again).
	 * @param failing whether the dependency fails
	 */
	public void failing(boolean failing) {
		this.failing = failing;
	}

	/**
	 * Stop answering: the port refuses connections, as a killed instance's does.
	 */
	public synchronized void stop() {
		if (this.server != null) {
			this.server.stop(0);
			this.server = null;
		}
	}

	/**
	 * Answer again on the same port, after {@link #stop()}.
	 */
	public synchronized void restart() {
		if (this.server == null) {
			this.server = bind(this.port);
		}
	}

	@Override
	public void close() {
		stop();
	}

	private HttpServer bind(int port) {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
			server.createContext("/", (exchange) -> {
				byte[] body = (this.failing ? "{\"status\":\"DOWN\"}" : "{\"status\":\"UP\"}").getBytes();
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(this.failing ? 500 : 200, body.length);
				exchange.getResponseBody().write(body);
				exchange.close();
			});
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not bind a loopback dependency to port " + port, ex);
		}
	}

}
