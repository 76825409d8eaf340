package dev.degradation.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.degradation.manifest.Dependency;
import dev.degradation.monitor.HealthProbe;
import dev.degradation.monitor.ProbeResult;

/**
 * Judges a dependency with a {@code health_indicator} by the Spring Boot health contributor of
 * that name (such as {@code db}, or {@code db/primary} inside a composite), as the health
 * endpoint would: healthy when its status is {@code UP}. Dependencies with a {@code health_url}
 * go to the given HTTP probe. An indicator that is missing, reactive only, or throws counts as a
 * failed probe with a detail that says which, rather than as a healthy dependency.
 */
public final class HealthIndicatorProbe implements HealthProbe {

	private final Supplier<@Nullable HealthContributors> contributors;

	private final HealthProbe urlProbe;

	private final Clock clock;

	/**
	 * Create a probe.
	 * @param contributors the health contributors to look indicators up in, looked up on every
	 * probe since the registry may be created, and indicators registered, after this probe
	 * @param urlProbe how dependencies with a {@code health_url} are probed
	 * @param clock the clock that stamps results
	 */
	public HealthIndicatorProbe(Supplier<@Nullable HealthContributors> contributors, HealthProbe urlProbe,
			Clock clock) {
		this.contributors = contributors;
		this.urlProbe = urlProbe;
		this.clock = clock;
	}

	@Override
	public ProbeResult probe(Dependency dependency) {
		String name = dependency.healthIndicator();
		if (name == null) {
			return this.urlProbe.probe(dependency);
		}
		long started = System.nanoTime();
		HealthContributor contributor = find(name);
		if (!(contributor instanceof HealthIndicator indicator)) {
			return result(false, ProbeResult.ERROR, (contributor != null)
					? "health contributor '" + name + "' is not a HealthIndicator"
					: "no health contributor named '" + name + "'", started);
		}
		try {
			Health health = indicator.health(false);
			Status status = health.getStatus();
			boolean up = Status.UP.equals(status);
			return result(up, up ? ProbeResult.OK : ProbeResult.DOWN, "health indicator " + status.getCode(),
					started);
		}
		catch (RuntimeException ex) {
			// Boot's own indicators catch their failures; a user's may not.
			return result(false, ProbeResult.ERROR, ex.getClass().getSimpleName() + ": " + ex.getMessage(), started);
		}
	}

	private @Nullable HealthContributor find(String name) {
		HealthContributors contributors = this.contributors.get();
		HealthContributor found = null;
		for (String part : name.split("/")) {
			if (contributors == null) {
				return null;
			}
			found = contributors.getContributor(part);
			contributors = (found instanceof CompositeHealthContributor composite) ? composite : null;
		}
		return found;
	}

	@Override
	public void abort(Thread prober) {
		this.urlProbe.abort(prober);
	}

	@Override
	public void abortAll() {
		this.urlProbe.abortAll();
	}

	private ProbeResult result(boolean healthy, String outcome, String detail, long started) {
		return new ProbeResult(healthy, outcome, detail, Instant.now(this.clock),
				Duration.ofNanos(System.nanoTime() - started));
	}

}
