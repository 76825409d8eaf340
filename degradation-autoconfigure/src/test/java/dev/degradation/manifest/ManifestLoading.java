package dev.degradation.manifest;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Loads manifests written as text blocks in tests and returns what the loader reported, so that
 * each test reads as "this YAML gives that problem at that line and column".
 */
final class ManifestLoading {

	static final String SOURCE = "manifest.yaml";

	/** The loader the starter builds when the Actuator is present, without placeholders. */
	static final ManifestLoader LOADER = ManifestLoader.standard().withReservedBasePath("/actuator");

	private ManifestLoading() {
	}

	static DegradationManifest load(String yaml) {
		return load(LOADER, yaml);
	}

	static DegradationManifest load(ManifestLoader loader, String yaml) {
		return loader.load(SOURCE, yaml.getBytes(StandardCharsets.UTF_8));
	}

	static InvalidManifestException failure(ManifestLoader loader, byte[] content) {
		InvalidManifestException failure = catchThrowableOfType(InvalidManifestException.class,
				() -> loader.load(SOURCE, content));
		assertThat(failure).as("the manifest is rejected").isNotNull();
		return failure;
	}

	static List<ManifestProblem> problems(ManifestLoader loader, String yaml) {
		return failure(loader, yaml.getBytes(StandardCharsets.UTF_8)).getProblems();
	}

	static List<ManifestProblem> problems(String yaml) {
		return problems(LOADER, yaml);
	}

	static ManifestProblem onlyProblem(ManifestLoader loader, String yaml) {
		List<ManifestProblem> problems = problems(loader, yaml);
		assertThat(problems).as("problems").hasSize(1);
		return problems.get(0);
	}

	static ManifestProblem onlyProblem(String yaml) {
		return onlyProblem(LOADER, yaml);
	}

	/**
	 * The problem expected at a line and column (both starting at 1) of {@link #SOURCE}.
	 */
	static ManifestProblem problem(int line, int column, String path, String message) {
		return new ManifestProblem(SOURCE, new Position(line, column), path, message);
	}

}
