package dev.degradation.autoconfigure;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.Dependency;
import dev.degradation.monitor.DependencyProbes;
import dev.degradation.monitor.HealthProbe;

/**
 * Runs the dependency probes for as long as the application is up: they start once the
 * application is ready (so that a slow startup is never judged as a failing dependency, and no
 * probe runs in a context that never finishes starting), and stop early when the context closes,
 * before the beans they use are destroyed. After {@link #stop()} no probe runs and no probe thread
 * is left.
 */
public class DependencyProbing implements SmartLifecycle, ApplicationListener<ApplicationReadyEvent> {

	private static final Log logger = LogFactory.getLog(DependencyProbing.class);

	private final DegradationEngine engine;

	private final HealthProbe probe;

	private final DependencyProbes probes;

	private final Duration stopTimeout;

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
		// A dependency with neither health URL nor health indicator is judged by its calls alone.
		this.probes = new DependencyProbes(
				engine.manifest().dependencies().stream().filter(Dependency::probed).toList(), this.probe,
				(dependency, result) -> engine.recordProbe(dependency.name(), result), this.probe::abortAll);
		this.stopTimeout = engine.manifest()
			.dependencies()
			.stream()
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
	public String threadNamePrefix() {
		return this.probes.threadNamePrefix();
	}

	/**
	 * Return whether probes are being run now.
	 * @return whether probing has started and not stopped
	 */
	public boolean isProbing() {
		return this.probes.isRunning();
	}

}
