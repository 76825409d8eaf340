package dev.degradation.monitor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.degradation.manifest.Dependency;

/**
 * The probe of every dependency, made of {@link DependencyHealthSource health sources} in order:
 * the first source that supports a dependency probes it. A dependency that no source supports
 * counts as a failed probe whose detail says so, never as a healthy one.
 */
public final class HealthSources implements HealthProbe {

	private final List<DependencyHealthSource> sources;

	private final Clock clock;

	/**
	 * Create a probe from sources.
	 * @param sources the sources, in the order they are asked
	 * @param clock the clock that stamps the result of a dependency no source supports
	 */
	public HealthSources(List<? extends DependencyHealthSource> sources, Clock clock) {
		this.sources = List.copyOf(sources);
		this.clock = clock;
	}

	@Override
	public ProbeResult probe(Dependency dependency) {
		for (DependencyHealthSource source : this.sources) {
			if (source.supports(dependency)) {
				return source.probe(dependency);
			}
		}
		return new ProbeResult(false, ProbeResult.ERROR,
				"no health source judges dependency '" + dependency.name() + "'", Instant.now(this.clock),
				Duration.ZERO);
	}

	/**
	 * A dependency is probed when it declares what judges it (without a source that supports it,
	 * each probe is a failure that says so) or when a source supports it, whatever it declares.
	 */
	@Override
	public boolean claims(Dependency dependency) {
		return dependency.probed() || this.sources.stream().anyMatch((source) -> source.supports(dependency));
	}

	@Override
	public void abort(Thread prober) {
		this.sources.forEach((source) -> source.abort(prober));
	}

	@Override
	public void abortAll() {
		this.sources.forEach(DependencyHealthSource::abortAll);
	}

	/**
	 * Return the sources, in the order they are asked.
	 * @return the sources
	 */
	public List<DependencyHealthSource> sources() {
		return this.sources;
	}

}
