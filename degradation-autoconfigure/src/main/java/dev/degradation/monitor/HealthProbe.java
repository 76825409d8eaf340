package dev.degradation.monitor;

import dev.degradation.manifest.Dependency;

/**
 * Asks one dependency whether it is healthy. The starter's is {@link HttpHealthProbe}; an
 * application replaces it with a bean of its own, for example to send an authentication header. Implementations never throw: every failure is a
 * result. A probe that overruns its dependency's timeout is aborted by its scheduler through
 * {@link #abort(Thread)}, so that a dependency that hangs costs at most its timeout.
 */
public interface HealthProbe {

	/**
	 * Probe a dependency once, on the calling thread.
	 * @param dependency the dependency
	 * @return the result
	 */
	ProbeResult probe(Dependency dependency);

	/**
	 * Return whether this probe judges a dependency, so that it is probed at all: by default one
	 * with a {@code health_url}, a {@code health_indicator} or a health source's key
	 * ({@link Dependency#probed()}); a dependency judged by nothing else is judged by the
	 * application's calls alone.
	 * @param dependency the dependency
	 * @return whether it is probed
	 */
	default boolean claims(Dependency dependency) {
		return dependency.probed();
	}

	/**
	 * Abort the probe that the given thread is running, if any, so that it returns at once with a
	 * timeout result. Called from another thread.
	 * @param prober the thread running the probe
	 */
	default void abort(Thread prober) {
	}

	/**
	 * Abort every probe in flight; called when probing stops, so that stopping never waits for a
	 * dependency that hangs.
	 */
	default void abortAll() {
	}

}
