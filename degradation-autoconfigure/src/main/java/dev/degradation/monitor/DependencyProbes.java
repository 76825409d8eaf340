package dev.degradation.monitor;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Dependency;

/**
 * Probes every dependency on its own schedule, off the request path.
 *
 * <p>Each dependency is probed with a fixed delay between the end of one probe and the start of
 * the next, so probes of one dependency never overlap and a slow dependency is probed less often
 * instead of piling up. The pool has one thread per dependency and one more for deadlines, so a
 * dependency that hangs holds only its own thread, for at most its timeout (its deadline aborts
 * the probe), and never delays the others; the number of threads is fixed by the manifest and
 * never grows.
 */
public final class DependencyProbes {

	private static final Log logger = LogFactory.getLog(DependencyProbes.class);

	private static final AtomicInteger instances = new AtomicInteger();

	private final List<Dependency> dependencies;

	private final HealthProbe probe;

	private final BiConsumer<Dependency, ProbeResult> results;

	private final Runnable onStop;

	/** The dependencies whose health URL was warned about as not served. */
	private final Set<String> warnedNotFound = ConcurrentHashMap.newKeySet();

	private final String threadNamePrefix = "degradation-probe-" + instances.incrementAndGet() + "-";

	private @Nullable ScheduledThreadPoolExecutor executor;

	/**
	 * Create probes; nothing runs until {@link #start()}.
	 * @param dependencies the dependencies to probe
	 * @param probe how to probe one dependency
	 * @param results what to do with each result (called on the probe thread)
	 * @param onStop called by {@link #stop(Duration)} before waiting, to abort probes in flight
	 */
	public DependencyProbes(List<Dependency> dependencies, HealthProbe probe,
			BiConsumer<Dependency, ProbeResult> results, Runnable onStop) {
		this.dependencies = List.copyOf(dependencies);
		this.probe = probe;
		this.results = results;
		this.onStop = onStop;
	}

	/**
	 * Start probing every dependency, the first probe at once. Does nothing if already started or
	 * if there is no dependency. Probing can be started again after {@link #stop(Duration)}.
	 */
	public synchronized void start() {
		if (this.executor != null || this.dependencies.isEmpty()) {
			return;
		}
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(this.dependencies.size() + 1,
				threadFactory(this.threadNamePrefix));
		executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
		executor.setRemoveOnCancelPolicy(true);
		for (Dependency dependency : this.dependencies) {
			long interval = dependency.healthCheck().interval().toMillis();
			executor.scheduleWithFixedDelay(() -> probeOnce(executor, dependency), 0, interval,
					TimeUnit.MILLISECONDS);
		}
		this.executor = executor;
	}

	/**
	 * Stop probing: no probe starts after this returns, probes in flight are aborted, and the probe
	 * threads are gone (waiting at most {@code timeout} for them).
	 * @param timeout how long to wait for the probe threads to end
	 * @return whether every probe thread ended in time
	 */
	public synchronized boolean stop(Duration timeout) {
		ScheduledThreadPoolExecutor executor = this.executor;
		if (executor == null) {
			return true;
		}
		this.executor = null;
		executor.shutdownNow();
		this.onStop.run();
		try {
			return executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * Return the prefix of the names of this instance's probe threads, as seen in thread dumps.
	 * @return the prefix, such as {@code degradation-probe-1-}
	 */
	public String threadNamePrefix() {
		return this.threadNamePrefix;
	}

	/**
	 * Return whether probing is running.
	 * @return whether started and not stopped
	 */
	public synchronized boolean isRunning() {
		return this.executor != null;
	}

	private void probeOnce(ScheduledThreadPoolExecutor executor, Dependency dependency) {
		Thread prober = Thread.currentThread();
		ScheduledFuture<?> deadline = executor.schedule(() -> this.probe.abort(prober),
				dependency.healthCheck().timeout().toMillis(), TimeUnit.MILLISECONDS);
		try {
			ProbeResult result = this.probe.probe(dependency);
			if (!prober.isInterrupted()) {
				warnOnceIfNotFound(dependency, result);
				this.results.accept(dependency, result);
			}
		}
		catch (RuntimeException | LinkageError ex) {
			// A periodic task that throws is never run again: log and keep probing.
			logger.warn("Probe of dependency '" + dependency.name() + "' failed unexpectedly", ex);
		}
		finally {
			deadline.cancel(false);
		}
	}

	/**
	 * A health URL that is not served sheds nothing (its probes do not count), so it must be
	 * said once, loudly: in production it is a wrong {@code health_url}, in a test a dependency
	 * stubbed (with WireMock, say) without its health URL.
	 */
	private void warnOnceIfNotFound(Dependency dependency, ProbeResult result) {
		if (!result.counts() && this.warnedNotFound.add(dependency.name())) {
			logger.warn("Dependency '" + dependency.name() + "': its health_url " + dependency.healthUrl()
					+ " answered 404 Not Found, so its probes say nothing of its health and do not count: they "
					+ "shed no route. Fix 'health_url' in the manifest (or judge it by a 'health_indicator'); "
					+ "in a test that stubs the dependency without its health URL, stub that URL too or set "
					+ "'degradation.probes.enabled=false'");
		}
	}

	private static ThreadFactory threadFactory(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
