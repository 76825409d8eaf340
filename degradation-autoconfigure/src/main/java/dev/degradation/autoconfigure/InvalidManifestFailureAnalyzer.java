package dev.degradation.autoconfigure;

import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.degradation.manifest.InvalidManifestException;

/**
 * Explains an invalid degradation manifest at startup: every problem with its file, line, column
 * and YAML path.
 */
class InvalidManifestFailureAnalyzer extends AbstractFailureAnalyzer<InvalidManifestException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidManifestException cause) {
		int count = cause.getProblems().size();
		String description = "The degradation manifest " + cause.getSource() + " has " + count
				+ ((count == 1) ? " problem" : " problems") + ":\n\n"
				+ cause.getProblems().stream().map((problem) -> "    " + problem).collect(Collectors.joining("\n"));
		String action = "Fix " + ((count == 1) ? "this problem" : "these problems") + " in " + cause.getSource()
				+ ". Every key of the manifest is described in the starter's manifest reference (docs/manifest.md). "
				+ "To start without degradation meanwhile, set 'degradation.enabled=false'.";
		return new FailureAnalysis(description, action, cause);
	}

}
