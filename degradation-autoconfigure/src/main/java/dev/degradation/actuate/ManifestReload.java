package dev.degradation.actuate;

import java.util.List;

import dev.degradation.manifest.ManifestProblem;

/**
 * Reloads the manifest from its configured location, for the endpoint's
 * {@code POST /actuator/degradation/manifest}.
 */
@FunctionalInterface
public interface ManifestReload {

	/**
	 * Load the manifest again and make it active, or refuse it whole.
	 * @param by who asks, for the log line
	 * @return what happened
	 */
	Result reload(String by);

	/**
	 * What a reload did.
	 *
	 * @param reloaded whether the new manifest is active
	 * @param location where it was loaded from
	 * @param problems every problem of a refused manifest, with its position
	 * @param reason why it was refused, empty otherwise
	 */
	record Result(boolean reloaded, String location, List<ManifestProblem> problems, String reason) {

		public Result {
			problems = List.copyOf(problems);
		}

	}

}
