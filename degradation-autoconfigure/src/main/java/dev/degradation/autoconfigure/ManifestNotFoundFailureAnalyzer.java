package dev.degradation.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a configured manifest location where nothing exists.
 */
class ManifestNotFoundFailureAnalyzer extends AbstractFailureAnalyzer<ManifestNotFoundException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ManifestNotFoundException cause) {
		return new FailureAnalysis(
				"'degradation.manifest' is set to '" + cause.getLocation() + "', but no manifest exists there.",
				"Correct 'degradation.manifest' so that it names an existing file or class path resource, "
						+ "prefix it with 'optional:' if the application may start without degradation, "
						+ "or set 'degradation.enabled=false'.",
				cause);
	}

}
