package dev.degradation.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.springframework.web.reactive.function.client.WebClient;

/**
 * A dependency on loopback whose answer the test sets: a status with an optional
 * {@code Retry-After}, given at once or after a delay, or no answer at all (it hangs until
 * closed). Records the requests it gets.
 */
final class LoopbackStub implements AutoCloseable {

	private final HttpServer server;

	private final CountDownLatch closed = new CountDownLatch(1);

	final List<HttpExchangeRecord> requests = new CopyOnWriteArrayList<>();

	volatile int status = 200;

	volatile String retryAfter;

	volatile boolean hang;

	/** How many more answers get {@link #status} before the stub answers 200; negative for all. */
	private final AtomicInteger statusAnswers = new AtomicInteger(-1);

	/** How long it takes before it answers: a slow but working dependency. */
	volatile Duration delay = Duration.ZERO;

	LoopbackStub() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(Executors.newCachedThreadPool());
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	/**
	 * Start a stub on a free loopback port, for a test's static field.
	 * @return the running stub
	 */
	static LoopbackStub start() {
		try {
			return new LoopbackStub();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Make one unguarded {@code WebClient} call here. The first request of a JVM loads and starts
	 * Reactor Netty, over a second on a busy machine: longer than the time limits the tests set,
	 * and not what any of them measures.
	 */
	void warmUpReactorNetty() {
		WebClient.create(url()).get().uri("/warm-up").retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	void answer(int status, String retryAfter) {
		this.status = status;
		this.retryAfter = retryAfter;
		this.hang = false;
		this.delay = Duration.ZERO;
		this.statusAnswers.set(-1);
		this.requests.clear();
	}

	/**
	 * Answer with a status a number of times, then 200: a dependency that recovers.
	 */
	void answerThenRecover(int status, String retryAfter, int times) {
		answer(status, retryAfter);
		this.statusAnswers.set(times);
	}

	private void handle(HttpExchange exchange) throws IOException {
		Map<String, String> headers = new HashMap<>();
		exchange.getRequestHeaders()
			.forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
		this.requests.add(new HttpExchangeRecord(exchange.getRequestURI().getPath(), exchange.getRequestMethod(),
				headers));
		if (this.hang) {
			try {
				this.closed.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return;
		}
		if (!this.delay.isZero()) {
			try {
				// The dependency's own slowness; cut short when the stub closes.
				this.closed.await(this.delay.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		byte[] body = "{\"source\":\"live\"}".getBytes(StandardCharsets.UTF_8);
		boolean recovered = this.statusAnswers.getAndUpdate((left) -> (left > 0) ? left - 1 : left) == 0;
		if (this.retryAfter != null && !recovered) {
			exchange.getResponseHeaders().set("Retry-After", this.retryAfter);
		}
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(recovered ? 200 : this.status, body.length);
		exchange.getResponseBody().write(body);
		exchange.close();
	}

	@Override
	public void close() {
		this.closed.countDown();
		this.server.stop(0);
	}

	/**
	 * A request the stub got: its path, its method and its headers (the first value of each,
	 * by lower-case name).
	 */
	record HttpExchangeRecord(String path, String method, Map<String, String> headers) {

		/**
		 * Return the deadline the request carried in the starter's default header.
		 * @return the milliseconds it may take, or {@code null}
		 */
		String deadline() {
			return this.headers.get("x-envoy-expected-rq-timeout-ms");
		}

	}

}
