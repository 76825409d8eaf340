package dev.degradation.manifest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Collects the problems of one manifest so that validation can go on after the first and report
 * them all at once.
 */
final class Problems {

	/**
	 * How many problems are listed. A real manifest never comes close; a hostile one (a megabyte
	 * of broken values) must not turn into a million-line startup failure.
	 */
	static final int MAX_LISTED = 100;

	/** File order; among problems at one position, the order they were found. */
	private static final Comparator<Found> FILE_ORDER = Comparator.comparing((Found found) -> found.problem().position())
		.thenComparingInt(Found::order);

	private final String source;

	private final List<Found> problems = new ArrayList<>();

	/** The last of the kept problems in file order, once known. */
	private @Nullable Found last;

	private int found;

	Problems(String source) {
		this.source = source;
	}

	/**
	 * Add a problem. Beyond {@link #MAX_LISTED}, the problems kept are those that come first in
	 * the file, whichever reader or rule found them first, so that what is listed does not depend
	 * on the order in which the manifest is checked.
	 */
	void add(Position position, String path, String message) {
		int order = this.found++;
		if (this.problems.size() == MAX_LISTED) {
			// Found after every kept problem, so at the last one's position it comes after it too.
			if (position.compareTo(last().problem().position()) >= 0) {
				return;
			}
			this.problems.remove(last());
			this.last = null;
		}
		this.problems.add(new Found(new ManifestProblem(this.source, position, path, message), order));
	}

	/**
	 * Return the last kept problem in file order. Readers mostly find problems in file order, so it
	 * is mostly the same one for every problem past the limit.
	 */
	private Found last() {
		if (this.last == null) {
			this.last = this.problems.stream().max(FILE_ORDER).orElseThrow();
		}
		return this.last;
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
		List<ManifestProblem> listed = new ArrayList<>(
				this.problems.stream().sorted(FILE_ORDER).map(Found::problem).toList());
		int unlisted = this.found - this.problems.size();
		if (unlisted > 0) {
			Position last = listed.get(listed.size() - 1).position();
			listed.add(new ManifestProblem(this.source, last, "", unlisted
					+ " more problems are not listed; fix the ones above and load the manifest again"));
		}
		return List.copyOf(listed);
	}

	/**
	 * A problem with the order in which it was found.
	 */
	private record Found(ManifestProblem problem, int order) {

	}

}
