package dev.degradation.sample.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One dependency of the shop, played in-process by a JDK {@link HttpServer} of its own on
 * 127.0.0.1: a health endpoint at {@code /healthz} and its data endpoints, all answering
 * according to its {@link DependencyMode}, which can be switched at run time.
 *
 * <p>Each dependency has its own listening socket, so that {@link DependencyMode#REFUSING} can
 * really close it (connecting is refused, as with a stopped process) while the other dependencies
 * keep answering; leaving that mode listens on the same port again, so the URLs in the manifest
 * stay valid.
 *
 * <p>A request held by {@link DependencyMode#HANGING} or {@link DependencyMode#SLOW} holds no
 * thread: its exchange is parked and answered later, by a timer (slow) or when the mode changes,
 * by the new mode. A client that keeps calling a hanging dependency therefore costs it open
 * sockets, never threads: a dependency runs on a fixed number of threads whatever its mode.
 * Stopping the dependency closes every parked exchange.
 */
public final class EmbeddedDependency {

	/** Name of the dependency that receives tracked events and assigns A/B variants. */
	public static final String ANALYTICS_COLLECTOR = "analytics-collector";

	/** Name of the dependency that recommends products. */
	public static final String RECOMMENDATIONS_API = "recommendations-api";

	/** Name of the dependency that holds customer profiles. */
	public static final String PERSONALIZATION_SERVICE = "personalization-service";

	/** Path of the health endpoint. */
	public static final String HEALTH_PATH = "/healthz";

	/**
	 * Threads that answer requests: never blocked by a mode, since held requests are parked
	 * instead of waited for, so two are plenty for the demo's traffic and the starter's probes.
	 */
	private static final int HANDLER_THREADS = 2;

	private static final InetAddress LOOPBACK = loopback();

	private static final Log logger = LogFactory.getLog(EmbeddedDependency.class);

	private static final AtomicInteger instances = new AtomicInteger();

	private final String name;

	private final String threadNamePrefix;

	private final List<DataEndpoint> endpoints;

	private final Duration slowDelay;

	private final ExecutorService handlers;

	private final ScheduledExecutorService timers;

	private final Object lock = new Object();

	/** Held requests, each with the timer that answers it when slow; guarded by {@link #lock}. */
	private final Map<HttpExchange, @Nullable ScheduledFuture<?>> held = new IdentityHashMap<>();

	/** Written once, at the first bind, under {@link #lock}. */
	private volatile int port;

	/** Null while refusing and once stopped; guarded by {@link #lock}. */
	private @Nullable HttpServer server;

	/** Written under {@link #lock}; read without it to show the mode. */
	private volatile DependencyMode mode = DependencyMode.HEALTHY;

	/** When the mode last changed; written under {@link #lock}. */
	private volatile Instant modeSince = Instant.now();

	private boolean stopped;

	private EmbeddedDependency(String name, Duration slowDelay, List<DataEndpoint> endpoints) {
		this.name = name;
		this.threadNamePrefix = "embedded-" + name + "#" + instances.incrementAndGet() + "-";
		this.endpoints = endpoints;
		this.slowDelay = slowDelay;
		this.handlers = Executors.newFixedThreadPool(HANDLER_THREADS, daemonThreads(this.threadNamePrefix + "handler-"));
		this.timers = Executors.newSingleThreadScheduledExecutor(daemonThreads(this.threadNamePrefix + "timer-"));
	}

	/**
	 * Start one of the shop's dependencies, healthy, on an ephemeral port of 127.0.0.1.
	 * @param name {@value #ANALYTICS_COLLECTOR}, {@value #RECOMMENDATIONS_API} or
	 * {@value #PERSONALIZATION_SERVICE}
	 * @param slowDelay how long the dependency takes to answer in {@link DependencyMode#SLOW}
	 * @return the running dependency
	 * @throws IllegalArgumentException if the shop has no dependency of that name
	 * @throws UncheckedIOException if it cannot listen on 127.0.0.1
	 */
	public static EmbeddedDependency start(String name, Duration slowDelay) {
		EmbeddedDependency dependency = new EmbeddedDependency(name, slowDelay, endpointsOf(name));
		try {
			synchronized (dependency.lock) {
				dependency.server = dependency.listen(0);
				dependency.port = dependency.server.getAddress().getPort();
			}
		}
		catch (RuntimeException ex) {
			dependency.stop();
			throw ex;
		}
		return dependency;
	}

	private static List<DataEndpoint> endpointsOf(String name) {
		return switch (name) {
			case ANALYTICS_COLLECTOR -> List.of(new DataEndpoint("POST", "/events", 202, null),
					new DataEndpoint("GET", "/assignments", 200, "{\"variant\":\"treatment\"}"));
			case RECOMMENDATIONS_API ->
				List.of(new DataEndpoint("GET", "/recommendations", 200, "{\"items\":[\"p-2\",\"p-3\"]}"));
			case PERSONALIZATION_SERVICE ->
				List.of(new DataEndpoint("GET", "/profiles", 200, "{\"profile\":\"outdoor-enthusiast\"}"));
			default -> throw new IllegalArgumentException("The shop has no dependency named '" + name + "'");
		};
	}

	/**
	 * Return the name of this dependency, as used in the manifest.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return how this dependency behaves now.
	 * @return the mode
	 */
	public DependencyMode mode() {
		return this.mode;
	}

	/**
	 * Return when the mode last changed (or the dependency started), so that what follows a
	 * switch can be timed from the moment it took effect.
	 * @return the time of the last switch
	 */
	public Instant modeSince() {
		return this.modeSince;
	}

	/**
	 * Return the port this dependency listens on (or will listen on again, while refusing).
	 * @return the port on 127.0.0.1
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Return the URL its endpoints are relative to, such as {@code http://127.0.0.1:41234}.
	 * @return the base URL, without a trailing slash
	 */
	public URI url() {
		return URI.create("http://127.0.0.1:" + this.port);
	}

	/**
	 * Return how long the dependency takes to answer in {@link DependencyMode#SLOW}.
	 * @return the delay
	 */
	public Duration slowDelay() {
		return this.slowDelay;
	}

	/**
	 * Return how many requests are held now, waiting for an answer.
	 * @return the number of held requests
	 */
	public int heldRequests() {
		synchronized (this.lock) {
			return this.held.size();
		}
	}

	/**
	 * Change how this dependency behaves, from now on. Requests it holds are answered by the new
	 * mode: a switch to {@link DependencyMode#HEALTHY} answers them, to
	 * {@link DependencyMode#FAILING} fails them, to {@link DependencyMode#SLOW} answers them after
	 * the slow delay. Switching to the current mode does nothing.
	 * @param mode the new mode
	 * @throws IllegalStateException if the dependency is stopped, or cannot listen on its port
	 * again when leaving {@link DependencyMode#REFUSING} (it then stays refusing)
	 */
	public void switchTo(DependencyMode mode) {
		List<HttpExchange> released = new ArrayList<>();
		DependencyMode previous;
		synchronized (this.lock) {
			if (this.stopped) {
				throw new IllegalStateException("Embedded dependency '" + this.name + "' is stopped");
			}
			previous = this.mode;
			if (mode == previous) {
				return;
			}
			HttpServer server = this.server;
			if (mode == DependencyMode.REFUSING && server != null) {
				// Closes the listening socket and every open connection, held requests included.
				server.stop(0);
				this.server = null;
			}
			else if (previous == DependencyMode.REFUSING) {
				this.server = listenAgain();
			}
			this.mode = mode;
			this.modeSince = Instant.now();
			for (Map.Entry<HttpExchange, @Nullable ScheduledFuture<?>> entry : this.held.entrySet()) {
				cancel(entry.getValue());
				released.add(entry.getKey());
			}
			this.held.clear();
			if (mode.holdsRequests()) {
				released.forEach((exchange) -> hold(exchange, mode));
				released.clear();
			}
		}
		logger.info("Embedded dependency '" + this.name + "' on port " + this.port + ": " + previous + " -> " + mode);
		released.forEach((exchange) -> this.handlers.execute(() -> answer(exchange, mode)));
	}

	/**
	 * Stop listening, close every held request and end the threads. Calling it again does nothing.
	 */
	public void stop() {
		synchronized (this.lock) {
			if (this.stopped) {
				return;
			}
			this.stopped = true;
			if (this.server != null) {
				// Closes the listening socket and every open connection, held requests included.
				this.server.stop(0);
				this.server = null;
			}
			this.held.forEach((exchange, timer) -> {
				cancel(timer);
				exchange.close();
			});
			this.held.clear();
		}
		this.handlers.shutdownNow();
		this.timers.shutdownNow();
	}

	/**
	 * Return the prefix of the names of this dependency's own threads, unique to it.
	 * @return the prefix, such as {@code embedded-recommendations-api#2-}
	 */
	String threadNamePrefix() {
		return this.threadNamePrefix;
	}

	/**
	 * Return whether {@link #stop()} has been called.
	 * @return whether the dependency is stopped
	 */
	public boolean isStopped() {
		synchronized (this.lock) {
			return this.stopped;
		}
	}

	private HttpServer listenAgain() {
		try {
			return listen(this.port);
		}
		catch (UncheckedIOException ex) {
			throw new IllegalStateException("Embedded dependency '" + this.name + "' cannot listen on 127.0.0.1:"
					+ this.port + " again (" + ex.getCause().getMessage() + "); it stays " + DependencyMode.REFUSING,
					ex);
		}
	}

	private HttpServer listen(int port) {
		HttpServer server;
		try {
			server = HttpServer.create(new InetSocketAddress(LOOPBACK, port), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(
					"Could not start embedded dependency '" + this.name + "' on 127.0.0.1:" + port, ex);
		}
		server.createContext("/", this::handle);
		server.setExecutor(this.handlers);
		startOnDaemonThread(server);
		return server;
	}

	// HttpServer creates its dispatcher thread in start() and it inherits the daemon flag of the
	// caller, which may be the non-daemon main thread; a server nobody stopped (the application
	// failed to start, say) must never keep the JVM alive, so start() is called from a daemon.
	private void startOnDaemonThread(HttpServer server) {
		Thread starter = daemonThreads(this.threadNamePrefix + "start-").newThread(server::start);
		starter.start();
		try {
			starter.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			server.stop(0);
			throw new IllegalStateException("Interrupted while starting embedded dependency '" + this.name + "'", ex);
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		// Read the request body fully so that the client can reuse the connection.
		exchange.getRequestBody().transferTo(OutputStream.nullOutputStream());
		DependencyMode current;
		synchronized (this.lock) {
			current = this.stopped ? DependencyMode.REFUSING : this.mode;
			if (current.holdsRequests()) {
				hold(exchange, current);
				return;
			}
		}
		answer(exchange, current);
	}

	private void hold(HttpExchange exchange, DependencyMode mode) {
		ScheduledFuture<?> timer = (mode == DependencyMode.SLOW)
				? this.timers.schedule(() -> answerLate(exchange), this.slowDelay.toMillis(), TimeUnit.MILLISECONDS)
				: null;
		this.held.put(exchange, timer);
	}

	private void answerLate(HttpExchange exchange) {
		synchronized (this.lock) {
			if (!this.held.containsKey(exchange)) {
				return;
			}
			this.held.remove(exchange);
		}
		answer(exchange, DependencyMode.HEALTHY);
	}

	private void answer(HttpExchange exchange, DependencyMode mode) {
		try (exchange) {
			switch (mode) {
				case HEALTHY, SLOW -> answerHealthy(exchange);
				case FAILING -> send(exchange, 500, "{\"error\":\"simulated failure of " + this.name + "\"}");
				// A request that came in as the socket closed: its connection is closed unanswered.
				case REFUSING, HANGING -> {
				}
			}
		}
		catch (IOException ex) {
			// The client gave up before the answer: there is nobody left to tell.
		}
	}

	private void answerHealthy(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		String method = exchange.getRequestMethod();
		if (path.equals(HEALTH_PATH)) {
			boolean get = method.equals("GET");
			send(exchange, get ? 200 : 405, get ? "{\"status\":\"UP\"}" : null);
			return;
		}
		for (DataEndpoint endpoint : this.endpoints) {
			if (endpoint.path().equals(path)) {
				boolean allowed = endpoint.method().equals(method);
				send(exchange, allowed ? endpoint.status() : 405, allowed ? endpoint.json() : null);
				return;
			}
		}
		send(exchange, 404, null);
	}

	private static void send(HttpExchange exchange, int status, @Nullable String json) throws IOException {
		if (json == null) {
			exchange.sendResponseHeaders(status, -1);
			return;
		}
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, body.length);
		exchange.getResponseBody().write(body);
	}

	private static void cancel(@Nullable ScheduledFuture<?> timer) {
		if (timer != null) {
			timer.cancel(false);
		}
	}

	// Every thread is a daemon, so that a dependency nobody stopped can never keep the JVM alive.
	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	private static InetAddress loopback() {
		try {
			return InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 });
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public String toString() {
		return this.name + " on " + url() + " (" + this.mode + ")";
	}

	private record DataEndpoint(String method, String path, int status, @Nullable String json) {

	}

}
