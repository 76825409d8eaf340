package dev.degradation.monitor;

import dev.degradation.manifest.Dependency;

/**
 * Asks one dependency whether it is healthy. Implementations must return within the dependency's
 * timeout (plus scheduling noise) and never throw: every failure is a result.
 */
@FunctionalInterface
public interface HealthProbe {

	/**
	 * Probe a dependency once.
	 * @param dependency the dependency
	 * @return the result
	 */
	ProbeResult probe(Dependency dependency);

}
