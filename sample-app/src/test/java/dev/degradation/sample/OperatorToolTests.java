package dev.degradation.sample;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A missing program skips an operator test on a developer's machine, and fails it in CI.
 */
class OperatorToolTests {

	@Test
	void aProgramOnThePathIsFound() {
		assertThat(OperatorTool.require("sh", "dash", "true")).isExecutable();
	}

	@Test
	void aMissingProgramSkipsTheTestWithThePackageToInstallOutsideCi() {
		assertThatExceptionOfType(TestAbortedException.class)
			.isThrownBy(() -> OperatorTool.require("no-such-program", "no-such-package", null))
			.withMessageContaining("'no-such-program' is not installed (Debian package 'no-such-package'");
	}

	@Test
	void aMissingProgramFailsTheTestInCi() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> OperatorTool.require("no-such-program", "no-such-package", "true"))
			.withMessageContaining("CI=true and 'no-such-program' is not installed");
	}

}
