package dev.degradation.manifest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects the problems of one manifest so that validation can go on after the first and report
 * them all at once.
 */
final class Problems {

	/**
	 * How many problems are listed. A real manifest never comes close; a hostile one (a megabyte
	 * of aliases) must not turn into a million-line startup failure.
	 */
	static final int MAX_LISTED = 100;

	private final String source;

	private final List<ManifestProblem> problems = new ArrayList<>();

	private int unlisted;

	Problems(String source) {
		this.source = source;
	}

	void add(Position position, String path, String message) {
		if (this.problems.size() < MAX_LISTED) {
			this.problems.add(new ManifestProblem(this.source, position, path, message));
		}
		else {
			this.unlisted++;
		}
	}

	void throwIfAny() {
		if (!this.problems.isEmpty()) {
			throw new InvalidManifestException(this.source, listed());
		}
	}

	/**
	 * Return the problems as they are reported: in the order they appear in the file, and, beyond
	 * {@link #MAX_LISTED}, a last one that counts the rest.
	 * @return the problems, empty when there are none
	 */
	List<ManifestProblem> listed() {
		List<ManifestProblem> listed = new ArrayList<>(this.problems);
		if (this.unlisted > 0) {
			Position last = listed.stream().map(ManifestProblem::position).max(Position::compareTo).orElseThrow();
			listed.add(new ManifestProblem(this.source, last, "", this.unlisted
					+ " more problems are not listed; fix the ones above and load the manifest again"));
		}
		listed.sort(Comparator.comparing(ManifestProblem::position));
		return List.copyOf(listed);
	}

}
