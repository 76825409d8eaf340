package dev.degradation.sample.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * One JDK {@link HttpServer} on 127.0.0.1 and an ephemeral port that plays every
 * {@link EmbeddedDependency} of the shop, each under its own path ({@code /<name>/...}).
 */
public final class DependencyServer implements AutoCloseable {

	/**
	 * Handler threads. Enough for the demo's traffic and the starter's probes, and a bound, so that
	 * a later mode that hangs cannot make the server start threads without limit.
	 */
	private static final int THREADS = 8;

	private final HttpServer server;

	private final ExecutorService executor;

	private final Map<String, EmbeddedDependency> dependencies;

	private final URI baseUrl;

	private final AtomicBoolean stopped = new AtomicBoolean();

	private DependencyServer(HttpServer server, ExecutorService executor, Map<String, EmbeddedDependency> dependencies) {
		this.server = server;
		this.executor = executor;
		this.dependencies = dependencies;
		this.baseUrl = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
	}

	/**
	 * Start a server with the shop's three dependencies, all healthy.
	 * @return the running server
	 * @throws UncheckedIOException if the server cannot bind
	 */
	public static DependencyServer start() {
		return start(List.of(EmbeddedDependency.analyticsCollector(), EmbeddedDependency.recommendationsApi(),
				EmbeddedDependency.personalizationService()));
	}

	static DependencyServer start(List<EmbeddedDependency> dependencies) {
		HttpServer server;
		try {
			InetAddress loopback = InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 });
			server = HttpServer.create(new InetSocketAddress(loopback, 0), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded dependencies on 127.0.0.1", ex);
		}
		Map<String, EmbeddedDependency> byName = new LinkedHashMap<>();
		for (EmbeddedDependency dependency : dependencies) {
			byName.put(dependency.name(), dependency);
			server.createContext("/" + dependency.name() + "/", dependency::handle);
		}
		ThreadFactory threads = daemonThreads();
		ExecutorService executor = Executors.newFixedThreadPool(THREADS, threads);
		server.setExecutor(executor);
		startOnDaemonThread(server, threads);
		return new DependencyServer(server, executor, byName);
	}

	// Every thread of the server is a daemon, so that a server nobody stopped (the application
	// failed to start, say) can never keep the JVM alive.
	private static ThreadFactory daemonThreads() {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, "embedded-dependency-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	// HttpServer creates its dispatcher thread in start() and it inherits the daemon flag of the
	// caller, which is the non-daemon main thread; so start() is called from a daemon thread.
	private static void startOnDaemonThread(HttpServer server, ThreadFactory threads) {
		Thread starter = threads.newThread(server::start);
		starter.start();
		try {
			starter.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			server.stop(0);
			throw new IllegalStateException("Interrupted while starting the embedded dependencies", ex);
		}
	}

	/**
	 * Return the URL every dependency path is relative to, such as {@code http://127.0.0.1:41234}.
	 * @return the base URL, without a trailing slash
	 */
	public URI baseUrl() {
		return this.baseUrl;
	}

	/**
	 * Return the dependency with the given name.
	 * @param name the dependency name, such as {@code recommendations-api}
	 * @return the dependency
	 * @throws NoSuchElementException if the server plays no such dependency
	 */
	public EmbeddedDependency dependency(String name) {
		EmbeddedDependency dependency = this.dependencies.get(name);
		if (dependency == null) {
			throw new NoSuchElementException(
					"No embedded dependency '" + name + "'; known: " + String.join(", ", this.dependencies.keySet()));
		}
		return dependency;
	}

	/**
	 * Return every dependency the server plays, in a stable order.
	 * @return the dependencies
	 */
	public List<EmbeddedDependency> dependencies() {
		return List.copyOf(this.dependencies.values());
	}

	/**
	 * Return whether {@link #stop()} has been called.
	 * @return whether the server is stopped
	 */
	public boolean isStopped() {
		return this.stopped.get();
	}

	/**
	 * Stop the server at once, dropping exchanges in progress. Calling it again does nothing.
	 */
	public void stop() {
		if (this.stopped.compareAndSet(false, true)) {
			this.server.stop(0);
			this.executor.shutdownNow();
		}
	}

	@Override
	public void close() {
		stop();
	}

	@Override
	public String toString() {
		return "DependencyServer " + this.baseUrl + " " + this.dependencies.values();
	}

}
