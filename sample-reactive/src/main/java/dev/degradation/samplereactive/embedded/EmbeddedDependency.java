package dev.degradation.samplereactive.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * One dependency of the catalog, played by a JDK {@link HttpServer} of its own on 127.0.0.1: a
 * health endpoint at {@code /healthz} and a data endpoint, both answering 500 while the dependency
 * is set failing. A stand-in for a real service, so that the sample needs no other process.
 */
public final class EmbeddedDependency {

	/** Path of the health endpoint, the manifest's {@code health_url}. */
	public static final String HEALTH_PATH = "/healthz";

	private final String name;

	private final HttpServer server;

	private final ExecutorService handlers;

	private volatile boolean failing;

	private volatile Duration delay = Duration.ZERO;

	/**
	 * Start a dependency on a free loopback port.
	 * @param name its name, as the manifest declares it
	 * @param answer the JSON answer of a data request, given the request's path
	 */
	EmbeddedDependency(String name, Function<String, String> answer) {
		this.name = name;
		// Four threads: enough for the demo's traffic, a slowed answer or two, and the starter's
		// probes, which a slowed data answer must not hold up.
		this.handlers = Executors.newFixedThreadPool(4, (runnable) -> {
			Thread thread = new Thread(runnable, "embedded-" + name);
			thread.setDaemon(true);
			return thread;
		});
		try {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the embedded dependency '" + name + "'", ex);
		}
		this.server.createContext("/", (exchange) -> handle(exchange, answer));
		this.server.setExecutor(this.handlers);
		this.server.start();
	}

	/**
	 * Return the dependency's name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return where it listens, the base of the manifest's URLs.
	 * @return its URL, without a trailing slash
	 */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/**
	 * Return whether it answers every request with a 500.
	 * @return whether it fails
	 */
	public boolean failing() {
		return this.failing;
	}

	/**
	 * Make it fail (500 on every request, its health check too) or answer again.
	 * @param failing whether it fails
	 */
	public void failing(boolean failing) {
		this.failing = failing;
	}

	/**
	 * Make its data answers (not its health check) wait, as a slow dependency does.
	 * @param delay how long each waits, {@link Duration#ZERO} for not at all
	 */
	public void delay(Duration delay) {
		this.delay = delay;
	}

	void stop() {
		this.server.stop(0);
		this.handlers.shutdownNow();
	}

	private void handle(HttpExchange exchange, Function<String, String> answer) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			String path = exchange.getRequestURI().getPath();
			Duration delay = this.delay;
			if (!delay.isZero() && !path.equals(HEALTH_PATH)) {
				try {
					Thread.sleep(delay.toMillis());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
			int status;
			String body;
			if (this.failing) {
				status = 500;
				body = "{\"error\":\"" + this.name + " is failing (demo)\"}";
			}
			else {
				status = 200;
				body = path.equals(HEALTH_PATH) ? "{\"status\":\"UP\"}" : answer.apply(path);
			}
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(status, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		}
	}

	@Override
	public String toString() {
		return this.name + " at " + url() + (this.failing ? " (failing)" : "")
				+ (this.delay.isZero() ? "" : " (answers after " + this.delay.toMillis() + " ms)");
	}

}
