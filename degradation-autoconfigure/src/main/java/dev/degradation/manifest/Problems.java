package dev.degradation.manifest;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the problems of one manifest so that validation can go on after the first and report
 * them all at once.
 */
final class Problems {

	private final String source;

	private final List<ManifestProblem> problems = new ArrayList<>();

	Problems(String source) {
		this.source = source;
	}

	void add(Position position, String path, String message) {
		this.problems.add(new ManifestProblem(this.source, position, path, message));
	}

	boolean isEmpty() {
		return this.problems.isEmpty();
	}

	void throwIfAny() {
		if (!this.problems.isEmpty()) {
			throw new InvalidManifestException(this.source, this.problems);
		}
	}

}
