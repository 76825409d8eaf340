package dev.degradation.manifest;

import java.util.List;

/**
 * What validating one manifest file found: its problems and, counted in the file, what it
 * declares, so that a tool can say what a valid manifest holds. The counts come from the file
 * rather than from a loaded manifest so that values left unchecked (lenient placeholders) are
 * counted too.
 *
 * @param source the description of the file
 * @param problems every problem, in file order; empty when the manifest is valid
 * @param dependencies how many dependencies the file declares
 * @param tiers how many tiers it declares
 * @param routes how many routes its tiers list
 * @param unresolvedPlaceholders how many values hold a placeholder that could not be resolved,
 * and were left unchecked
 */
public record ManifestCheck(String source, List<ManifestProblem> problems, int dependencies, int tiers, int routes,
		int unresolvedPlaceholders) {

	public ManifestCheck {
		problems = List.copyOf(problems);
	}

	/**
	 * Return whether the manifest has no problem.
	 * @return whether it is valid
	 */
	public boolean isValid() {
		return this.problems.isEmpty();
	}

}
