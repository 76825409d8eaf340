package dev.degradation.monitor;

import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.HealthSourceKey;
import dev.degradation.manifest.ServiceUrl;

/**
 * One way of judging a dependency's health, for the dependencies it {@link #supports claims}:
 * the starter's judge those with a {@code health_url} (over HTTP) and those with a
 * {@code health_indicator} (by Spring Boot's indicator of that name). {@link HealthSources} asks
 * every source in turn and the first that supports a dependency probes it, so that an
 * application adds a source (for some dependencies, or before the starter's) without replacing
 * another, as Spring Boot's health contributors are added. A source may have a
 * {@link #manifestKey() key of its own} in the manifest, which the dependencies it judges write
 * instead of {@code health_url}; it may also claim dependencies by what they already declare.
 * Like a {@link HealthProbe}, a source never throws: every failure is a result.
 *
 * <p>The key is asked before the manifest is read, so a source bean must not depend on the
 * manifest or on the engine (it gets each dependency with its probe).
 */
public interface DependencyHealthSource {

	/**
	 * Return whether this source judges a dependency: every dependency it claims is probed on
	 * the dependency's schedule, also one that declares neither {@code health_url} nor
	 * {@code health_indicator}.
	 * @param dependency the dependency
	 * @return whether it does
	 */
	boolean supports(Dependency dependency);

	/**
	 * Return the key a dependency writes in the manifest to be judged by this source, such as
	 * {@code kafka_topic: orders}; its value is the dependency's {@link Dependency#sourceKey}.
	 * @return the key, or {@code null} when the source claims dependencies by what they declare
	 * already
	 */
	default @Nullable HealthSourceKey manifestKey() {
		return null;
	}

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
