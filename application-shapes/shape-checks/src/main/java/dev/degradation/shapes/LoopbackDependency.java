package dev.degradation.shapes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import com.sun.net.httpserver.HttpServer;

/**
 * A dependency of a shape's application, on the JDK's HTTP server on 127.0.0.1: its health URL
 * ({@code /healthz}) answers 200 until the test makes it fail, then 500, so the starter's real
 * probes judge it failed.
 */
public final class LoopbackDependency implements AutoCloseable {

	private final HttpServer server;

	private volatile boolean failing;

	private LoopbackDependency(HttpServer server) {
		this.server = server;
	}

	/**
	 * Start a healthy dependency on a free port of 127.0.0.1.
	 * @return the running dependency
	 */
	public static LoopbackDependency start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			LoopbackDependency dependency = new LoopbackDependency(server);
			server.createContext("/", (exchange) -> {
				byte[] body = (dependency.failing ? "{\"status\":\"DOWN\"}" : "{\"status\":\"UP\"}").getBytes();
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(dependency.failing ? 500 : 200, body.length);
				exchange.getResponseBody().write(body);
				exchange.close();
			});
			server.start();
			return dependency;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the dependency's base URL, without a trailing slash.
	 * @return the base URL
	 */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/**
	 * Make the health URL answer 500 (or 200 again).
	 * @param failing whether the dependency fails
	 */
	public void failing(boolean failing) {
		this.failing = failing;
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
