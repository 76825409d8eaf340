package dev.degradation.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;

import static org.assertj.core.api.Assertions.fail;

/**
 * A program from Debian's packages that an operator-facing test drives for real (Prometheus,
 * promtool, Chromium, ChromeDriver). Where it is missing, the test is skipped with the package to
 * install, except under {@code CI=true}: there a missing program fails the build, since
 * {@code .ci/run} installs it and a skipped test would hide a broken install step.
 */
final class OperatorTool {

	private OperatorTool() {
	}

	/**
	 * Find a program on the {@code PATH} (and in {@code /usr/bin}, {@code /usr/sbin}, which a bare
	 * environment's {@code PATH} may lack).
	 * @param program the program's file name
	 * @param debianPackage the Debian package that installs it
	 * @return its path
	 */
	static Path require(String program, String debianPackage) {
		return require(program, debianPackage, System.getenv("CI"));
	}

	static Path require(String program, String debianPackage, String ci) {
		List<String> directories = new ArrayList<>();
		String path = System.getenv("PATH");
		if (path != null) {
			directories.addAll(List.of(path.split(java.io.File.pathSeparator)));
		}
		directories.addAll(List.of("/usr/bin", "/usr/sbin", "/usr/local/bin"));
		for (String directory : directories) {
			Path candidate = Path.of(directory, program);
			if (!directory.isEmpty() && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		String missing = "'" + program + "' is not installed (Debian package '" + debianPackage + "'; .ci/run installs it)";
		if ("true".equalsIgnoreCase(ci)) {
			fail("CI=true and " + missing);
		}
		Assumptions.abort("Skipped: " + missing + "; install it to run this test");
		throw new IllegalStateException("unreachable");
	}

	/**
	 * The repository's {@code docs} folder, where the rules and the dashboard that users copy live.
	 * @return its path
	 */
	static Path docs() {
		String configured = System.getProperty("repository.docs");
		Path docs = (configured != null) ? Path.of(configured) : Path.of("..", "docs");
		if (!Files.isDirectory(docs)) {
			fail("No docs folder at " + docs.toAbsolutePath());
		}
		return docs.toAbsolutePath().normalize();
	}

}
