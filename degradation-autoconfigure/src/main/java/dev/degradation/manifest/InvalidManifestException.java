package dev.degradation.manifest;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown when a manifest cannot be used. Carries every problem found, not only the first, so that
 * one run shows the author everything to fix.
 */
public class InvalidManifestException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String source;

	private final transient List<ManifestProblem> problems;

	/**
	 * Create a new exception.
	 * @param source the description of the manifest file
	 * @param problems the problems found, at least one
	 */
	public InvalidManifestException(String source, List<ManifestProblem> problems) {
		super(describe(source, problems));
		if (problems.isEmpty()) {
			throw new IllegalArgumentException("'problems' must not be empty");
		}
		this.source = source;
		this.problems = problems.stream()
			.sorted(Comparator.comparing(ManifestProblem::position))
			.toList();
	}

	/**
	 * Return the description of the manifest file that was rejected.
	 * @return the source description
	 */
	public String getSource() {
		return this.source;
	}

	/**
	 * Return every problem found, in the order they appear in the file.
	 * @return the problems
	 */
	public List<ManifestProblem> getProblems() {
		return this.problems;
	}

	private static String describe(String source, List<ManifestProblem> problems) {
		return "Invalid degradation manifest " + source + " (" + problems.size()
				+ ((problems.size() == 1) ? " problem" : " problems") + "):\n"
				+ problems.stream()
					.sorted(Comparator.comparing(ManifestProblem::position))
					.map((problem) -> "  - " + problem)
					.collect(Collectors.joining("\n"));
	}

}
