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
import dev.degradation.monitor.DependencyHealthSource;
import dev.degradation.monitor.ProbeResult;

/**
 * Judges a dependency with a {@code health_indicator} by the Spring Boot health contributor of
 * that name (such as {@code db}, or {@code db/primary} inside a composite), as the health
 * endpoint would: healthy when its status is {@code UP}. It is the {@link DependencyHealthSource}
 * of the dependencies with a {@code health_indicator}; those with a {@code health_url} have
 * their own. An indicator that is missing, reactive only, or throws counts as a
 * failed probe with a detail that says which, rather than as a healthy dependency.
 */
public final class HealthIndicatorProbe implements DependencyHealthSource {

	private final Supplier<@Nullable HealthContributors> contributors;

	private final Clock clock;

	/**
	 * Create a probe.
	 * @param contributors the health contributors to look indicators up in, looked up on every
	 * probe since the registry may be created, and indicators registered, after this probe
	 * @param clock the clock that stamps results
	 */
	public HealthIndicatorProbe(Supplier<@Nullable HealthContributors> contributors, Clock clock) {
		this.contributors = contributors;
		this.clock = clock;
	}

	@Override
	public boolean supports(Dependency dependency) {
		return dependency.healthIndicator() != null;
	}

	@Override
	public ProbeResult probe(Dependency dependency) {
		String name = dependency.healthIndicator();
		if (name == null) {
			return result(false, ProbeResult.ERROR, "dependency '" + dependency.name() + "' names no health_indicator",
					System.nanoTime());
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

	private ProbeResult result(boolean healthy, String outcome, String detail, long started) {
		return new ProbeResult(healthy, outcome, detail, Instant.now(this.clock),
				Duration.ofNanos(System.nanoTime() - started));
	}

}
