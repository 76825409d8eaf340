package dev.degradation.actuate;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.ManifestReplaced;
import dev.degradation.engine.periodic.PeriodicTask;

/**
 * Reads the meters of the manifest's pressure rules every {@code degradation.pressure.interval}
 * while the context runs, on a daemon thread of its own, off the engine's lock. Before the first
 * reading it checks that the application has the rules' meters ({@link PressureSampler#checkAtStartup()}),
 * and it starts before the web server, so that a manifest refused for a meter the application
 * does not have never takes a request. With no rule in the manifest it starts no thread, until a
 * reloaded manifest has one.
 */
public class PressureSampling extends PeriodicTask implements DegradationListener {

	private static final AtomicInteger instances = new AtomicInteger();

	private final PressureSampler sampler;

	/**
	 * Create the sampling of a sampler.
	 * @param sampler the sampler
	 * @param interval how often the meters are read
	 */
	public PressureSampling(PressureSampler sampler, Duration interval) {
		super("degradation-pressure-" + instances.incrementAndGet(), interval);
		this.sampler = sampler;
	}

	@Override
	protected void beforeFirstRun() {
		this.sampler.checkAtStartup();
	}

	@Override
	protected boolean hasWork() {
		return this.sampler.hasRules();
	}

	/**
	 * A reloaded manifest may have the first rules: sampling starts then.
	 */
	@Override
	public void manifestReplaced(ManifestReplaced replaced) {
		workChanged();
	}

	@Override
	protected Duration initialDelay() {
		return Duration.ZERO;
	}

	@Override
	protected void runOnce() {
		this.sampler.sample();
	}

	@Override
	protected String failure() {
		// A meter whose function fails must not stop the sampling of the others for good.
		return "Reading the pressure rules' meters failed";
	}

	@Override
	public int getPhase() {
		// Before the web server's lifecycle (Boot starts it at DEFAULT_PHASE - 2048).
		return DEFAULT_PHASE - 4096;
	}

}
