package dev.degradation.manifest;

/**
 * What to do with a problem of the manifest that only the running application can find: a route
 * that no handler of the application serves, a {@code health_indicator} that names no health
 * indicator of the application, a service id that discovery does not know, or a pressure rule
 * whose meter the application does not have. One type for every such check, so that
 * {@code degradation.verify} means the same to each; plain Java, so that the checks of every
 * layer can take it.
 */
public enum VerificationMode {

	/**
	 * Skip the check.
	 */
	OFF,

	/**
	 * Log each such route or indicator at WARN with its position in the manifest.
	 */
	WARN,

	/**
	 * Refuse to start, reporting each such route or indicator with its position in the manifest.
	 */
	STRICT

}
