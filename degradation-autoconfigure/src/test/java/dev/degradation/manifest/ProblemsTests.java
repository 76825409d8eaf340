package dev.degradation.manifest;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The list of problems a manifest gets: in file order, and bounded by the problems that come first
 * in the file whichever reader or rule found them first.
 */
class ProblemsTests {

	@Test
	void problemsAreListedInFileOrderAndAtOnePositionInTheOrderTheyWereFound() {
		Problems problems = new Problems("manifest.yaml");
		problems.add(new Position(3, 1), "c", "third");
		problems.add(new Position(1, 5), "a", "first");
		problems.add(new Position(3, 1), "c", "fourth");
		problems.add(new Position(2, 1), "b", "second");
		assertThat(problems.listed()).extracting(ManifestProblem::message)
			.containsExactly("first", "second", "third", "fourth");
	}

	@Test
	void beyondTheLimitTheProblemsThatComeFirstInTheFileAreKeptAndTheRestCounted() {
		Problems problems = new Problems("manifest.yaml");
		// Lines 101 to 200 first, as a reader of one section would find them, then lines 1 to 50,
		// as a rule checked after every section would.
		for (int line = 101; line <= 200; line++) {
			problems.add(new Position(line, 1), "", "line " + line);
		}
		for (int line = 1; line <= 50; line++) {
			problems.add(new Position(line, 1), "", "line " + line);
		}
		List<ManifestProblem> listed = problems.listed();
		assertThat(listed).hasSize(Problems.MAX_LISTED + 1);
		assertThat(listed.get(0).message()).isEqualTo("line 1");
		assertThat(listed.get(Problems.MAX_LISTED - 1).message()).isEqualTo("line 150");
		assertThat(listed.get(Problems.MAX_LISTED)).isEqualTo(new ManifestProblem("manifest.yaml",
				new Position(150, 1), "", "50 more problems are not listed; fix the ones above and load the manifest "
						+ "again"));
	}

}
