package dev.degradation.monitor.probing;

import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.ManifestReplaced;
import dev.degradation.manifest.Dependency;
import dev.degradation.monitor.DependencyProbes;
import dev.degradation.monitor.HealthProbe;
import dev.degradation.monitor.ProbeResult;

/**
 * Runs the dependency probes for as long as the application is up: they start once the
 * application is ready (so that a slow startup is never judged as a failing dependency, and no
 * probe runs in a context that never finishes starting), and stop early when the context closes,
 * before the beans they use are destroyed. After {@link #stop()} no probe runs and no probe thread
 * is left.
 */
public class DependencyProbing
		implements SmartLifecycle, ApplicationListener<ApplicationReadyEvent>, DegradationListener {

	private static final Log logger = LogFactory.getLog(DependencyProbing.class);

	private final DegradationEngine engine;

	private final HealthProbe probe;

	private DependencyProbes probes;

	private Duration stopTimeout;

	private boolean running;

	private boolean ready;

	/**
	 * Create the probing of an engine's dependencies.
	 * @param engine the engine that receives the results
	 * @param probe how one dependency is probed
	 */
	public DependencyProbing(DegradationEngine engine, HealthProbe probe) {
		this.engine = engine;
		this.probe = probe;
		this.probes = probes(engine.manifest().dependencies());
		this.stopTimeout = stopTimeout(engine.manifest().dependencies());
	}

	/**
	 * A reloaded manifest is probed from then on: the probes of the previous one stop and those
	 * of the new one start, each dependency with its own schedule (what the engine knows of an
	 * unchanged dependency is kept).
	 */
	@Override
	public synchronized void manifestReplaced(ManifestReplaced replaced) {
		boolean wasProbing = this.probes.isRunning();
		if (!this.probes.stop(this.stopTimeout)) {
			logger.warn("Dependency probes did not stop within " + this.stopTimeout.toMillis() + " ms");
		}
		List<Dependency> dependencies = replaced.manifest().dependencies();
		this.probes = probes(dependencies);
		this.stopTimeout = stopTimeout(dependencies);
		if (wasProbing) {
			startProbesIfRunningAndReady();
		}
	}

	private DependencyProbes probes(List<Dependency> dependencies) {
		// A dependency that no health source claims is judged by its calls alone.
		return new DependencyProbes(dependencies.stream().filter(this.probe::claims).toList(), this.probe,
				(dependency, result) -> recordProbe(dependency, result), this.probe::abortAll);
	}

	/**
	 * A probe that finishes just after a reload may name a dependency the new manifest no longer
	 * declares; its result is dropped.
	 */
	private void recordProbe(Dependency dependency, ProbeResult result) {
		try {
			this.engine.recordProbe(dependency.name(), result);
		}
		catch (NoSuchElementException ex) {
			logger.debug("Dropped the probe of '" + dependency.name() + "', which the manifest no longer declares");
		}
	}

	private static Duration stopTimeout(List<Dependency> dependencies) {
		return dependencies.stream()
			.map((dependency) -> dependency.healthCheck().timeout())
			.max(Duration::compareTo)
			.orElse(Duration.ZERO)
			.plusSeconds(1);
	}

	@Override
	public synchronized void onApplicationEvent(ApplicationReadyEvent event) {
		this.ready = true;
		startProbesIfRunningAndReady();
	}

	@Override
	public synchronized void start() {
		this.running = true;
		startProbesIfRunningAndReady();
	}

	@Override
	public synchronized void stop() {
		this.running = false;
		if (!this.probes.stop(this.stopTimeout)) {
			logger.warn("Dependency probes did not stop within " + this.stopTimeout.toMillis() + " ms");
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.running;
	}

	/**
	 * Probes run while the context is running and once the application has been ready: a
	 * context stopped and started again (for example around a checkpoint) probes again.
	 */
	private void startProbesIfRunningAndReady() {
		if (this.running && this.ready && !this.probes.isRunning()) {
			this.probes.start();
			if (logger.isDebugEnabled()) {
				logger.debug("Probing dependencies "
						+ this.engine.manifest().dependencies().stream().map(Dependency::name).toList());
			}
		}
	}

	/**
	 * Return the prefix of the names of the probe threads, as seen in thread dumps.
	 * @return the prefix
	 */
	public synchronized String threadNamePrefix() {
		return this.probes.threadNamePrefix();
	}

	/**
	 * Return whether probes are being run now.
	 * @return whether probing has started and not stopped
	 */
	public synchronized boolean isProbing() {
		return this.probes.isRunning();
	}

}
