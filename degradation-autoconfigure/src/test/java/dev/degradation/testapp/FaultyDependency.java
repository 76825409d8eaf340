package dev.degradation.testapp;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * A real HTTP dependency on a loopback port whose health the test switches: healthy, failing
 * (500), hanging (accepts and never answers), slow (answers after a delay), refusing (nothing
 * listens on the port, so connections are refused) or not serving its health URL (404). It keeps its port across modes, so the
 * manifest's health URL stays valid.
 */
public final class FaultyDependency implements AutoCloseable {

	/**
	 * How the dependency behaves.
	 */
	public enum Mode {

		HEALTHY, FAILING, HANGING, SLOW, REFUSING, NOT_FOUND

	}

	private final String name;

	private final int port;

	private final ExecutorService executor = Executors.newFixedThreadPool(16, (runnable) -> {
		Thread thread = new Thread(runnable, "faulty-dependency");
		thread.setDaemon(true);
		return thread;
	});

	private final List<Instant> requests = new CopyOnWriteArrayList<>();

	private volatile Mode mode = Mode.HEALTHY;

	private volatile Duration slowness = Duration.ofMillis(500);

	private volatile CountDownLatch modeChanged = new CountDownLatch(1);

	private @Nullable HttpServer server;

	private FaultyDependency(String name) {
		this.name = name;
		this.server = bind(0);
		this.port = this.server.getAddress().getPort();
	}

	public static FaultyDependency start(String name) {
		return new FaultyDependency(name);
	}

	public String healthUrl() {
		return "http://127.0.0.1:" + this.port + "/" + this.name + "/healthz";
	}

	/**
	 * Return the dependency's address, scheme, host and port, as discovery lists an instance.
	 * @return the address
	 */
	public String address() {
		return "http://127.0.0.1:" + this.port;
	}

	public synchronized void set(Mode mode) {
		this.mode = mode;
		CountDownLatch previous = this.modeChanged;
		this.modeChanged = new CountDownLatch(1);
		previous.countDown();
		if (mode == Mode.REFUSING && this.server != null) {
			this.server.stop(0);
			this.server = null;
		}
		else if (mode != Mode.REFUSING && this.server == null) {
			this.server = bind(this.port);
		}
	}

	public void setSlowness(Duration slowness) {
		this.slowness = slowness;
	}

	public Mode mode() {
		return this.mode;
	}

	/**
	 * Return when each request arrived, in order.
	 * @return the arrival times
	 */
	public List<Instant> requests() {
		return List.copyOf(this.requests);
	}

	@Override
	public synchronized void close() {
		this.modeChanged.countDown();
		if (this.server != null) {
			this.server.stop(0);
			this.server = null;
		}
		this.executor.shutdownNow();
	}

	private HttpServer bind(int port) {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
			server.createContext("/", this::handle);
			server.setExecutor(this.executor);
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not bind " + this.name + " to port " + port, ex);
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		this.requests.add(Instant.now());
		CountDownLatch changed = this.modeChanged;
		try (exchange) {
			switch (this.mode) {
				case HEALTHY -> answer(exchange, 200, "{\"status\":\"UP\"}");
				case FAILING -> answer(exchange, 500, "{\"status\":\"DOWN\"}");
				case HANGING -> {
					// Hold the connection open without a byte until the mode changes.
					changed.await(60, TimeUnit.SECONDS);
				}
				case SLOW -> {
					changed.await(this.slowness.toMillis(), TimeUnit.MILLISECONDS);
					answer(exchange, 200, "{\"status\":\"UP\"}");
				}
				case REFUSING -> answer(exchange, 503, "{}");
				case NOT_FOUND -> answer(exchange, 404, "{}");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void answer(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
