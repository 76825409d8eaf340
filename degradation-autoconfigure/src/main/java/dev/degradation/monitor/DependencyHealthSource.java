package dev.degradation.monitor;

import java.util.function.Predicate;

import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.ServiceUrl;

/**
 * One way of judging a dependency's health, for the dependencies it {@link #supports supports}:
 * the starter's judge those with a {@code health_url} (over HTTP) and those with a
 * {@code health_indicator} (by Spring Boot's indicator of that name). {@link HealthSources} asks
 * every source in turn and the first that supports a dependency probes it, so that an
 * application adds a source (for some dependencies, or before the starter's) without replacing
 * another. Like a {@link HealthProbe}, a source never throws: every failure is a result.
 */
public interface DependencyHealthSource {

	/**
	 * Return whether this source judges a dependency.
	 * @param dependency the dependency
	 * @return whether it does
	 */
	boolean supports(Dependency dependency);

	/**
	 * Probe a dependency this source supports once, on the calling thread.
	 * @param dependency the dependency
	 * @return the result
	 */
	ProbeResult probe(Dependency dependency);

	/**
	 * Abort the probe that the given thread is running, if any, as {@link HealthProbe#abort}.
	 * @param prober the thread running the probe
	 */
	default void abort(Thread prober) {
	}

	/**
	 * Abort every probe in flight, as {@link HealthProbe#abortAll}.
	 */
	default void abortAll() {
	}

	/**
	 * Return a source that judges the dependencies that match with a probe.
	 * @param supports which dependencies the probe judges
	 * @param probe the probe
	 * @return the source
	 */
	static DependencyHealthSource of(Predicate<Dependency> supports, HealthProbe probe) {
		return new DependencyHealthSource() {

			@Override
			public boolean supports(Dependency dependency) {
				return supports.test(dependency);
			}

			@Override
			public ProbeResult probe(Dependency dependency) {
				return probe.probe(dependency);
			}

			@Override
			public void abort(Thread prober) {
				probe.abort(prober);
			}

			@Override
			public void abortAll() {
				probe.abortAll();
			}

		};
	}

	/**
	 * Return the source of the dependencies with a {@code health_url} at one address, probed over
	 * HTTP; a {@code health_url} that names a service by id ({@code lb://}) is
	 * {@link ServiceHealthSource}'s.
	 * @param probe the HTTP probe
	 * @return the source
	 */
	static DependencyHealthSource healthUrl(HealthProbe probe) {
		return of((dependency) -> dependency.healthUrl() != null && !ServiceUrl.isServiceUrl(dependency.healthUrl()),
				probe);
	}

}
