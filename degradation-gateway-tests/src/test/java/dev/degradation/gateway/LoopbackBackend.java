package dev.degradation.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * A real backend on a loopback port, behind the gateway under test, whose behaviour the test
 * switches: it answers (200, with its name and {@code "live"}), fails (500), hangs (accepts a
 * request and never answers until it is set healthy again or closed) or stalls (sends the
 * headers of a 200 and the first half of its body, then nothing until it is set healthy again or
 * closed). It counts the requests that reach it, health checks apart, so that a test can tell
 * that the gateway did not call it, and keeps the deadline and simulation headers of the last one.
 */
final class LoopbackBackend implements AutoCloseable {

	enum Mode {

		HEALTHY, FAILING, HANGING, STALLING

	}

	private final String name;

	private final HttpServer server;

	private final ExecutorService executor = Executors.newFixedThreadPool(32, (runnable) -> {
		Thread thread = new Thread(runnable, "loopback-backend");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicInteger hits = new AtomicInteger();

	private volatile Mode mode = Mode.HEALTHY;

	private volatile CountDownLatch released = new CountDownLatch(1);

	private volatile @Nullable String deadline;

	private volatile @Nullable String simulation;

	private volatile @Nullable String simulationToken;

	private LoopbackBackend(String name) {
		this.name = name;
		try {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.server.createContext("/", this::handle);
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	static LoopbackBackend start(String name) {
		return new LoopbackBackend(name);
	}

	/** The URL the gateway's routes point at and the manifest's {@code base_url}. */
	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	String healthUrl() {
		return url() + "/healthz";
	}

	int hits() {
		return this.hits.get();
	}

	/** The deadline header the last request (health checks apart) arrived with, if any. */
	@Nullable String deadline() {
		return this.deadline;
	}

	/** The simulation header the last request (health checks apart) arrived with, if any. */
	@Nullable String simulation() {
		return this.simulation;
	}

	/** The simulation token header the last request (health checks apart) arrived with, if any. */
	@Nullable String simulationToken() {
		return this.simulationToken;
	}

	void set(Mode mode) {
		this.mode = mode;
		if (mode != Mode.HANGING && mode != Mode.STALLING) {
			CountDownLatch previous = this.released;
			this.released = new CountDownLatch(1);
			previous.countDown();
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			boolean health = exchange.getRequestURI().getPath().equals("/healthz");
			if (!health) {
				this.hits.incrementAndGet();
				this.deadline = exchange.getRequestHeaders().getFirst("x-envoy-expected-rq-timeout-ms");
				this.simulation = exchange.getRequestHeaders().getFirst("X-Degradation-Simulate");
				this.simulationToken = exchange.getRequestHeaders().getFirst("X-Degradation-Simulate-Token");
			}
			Mode current = this.mode;
			if (current == Mode.HANGING) {
				awaitRelease();
				return;
			}
			int status = (current == Mode.FAILING) ? 500 : 200;
			byte[] body = ("{\"backend\":\"" + this.name + "\",\"source\":\"" + ((status == 200) ? "live" : "failed")
					+ "\"}").getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(status, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				if (current == Mode.STALLING) {
					out.write(body, 0, body.length / 2);
					out.flush();
					awaitRelease();
					// The rest never comes: the exchange is closed short of the announced length.
					return;
				}
				out.write(body);
			}
		}
	}

	private void awaitRelease() {
		CountDownLatch latch = this.released;
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		set(Mode.HEALTHY);
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
