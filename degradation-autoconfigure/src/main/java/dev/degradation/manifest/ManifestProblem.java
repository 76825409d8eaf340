package dev.degradation.manifest;

/**
 * One problem found in a manifest, located precisely enough for an editor to jump to it.
 *
 * @param source the description of the manifest file (for example
 * {@code class path resource [degradation-manifest.yaml]})
 * @param position the line and column of the offending node
 * @param path the YAML path of the offending node, such as
 * {@code tiers.enhanced.routes[0].requires[0]}, or an empty string for the document itself
 * @param message what is wrong and, where possible, what would be right
 */
public record ManifestProblem(String source, Position position, String path, String message) {

	/**
	 * Create a problem. The path and the message are kept printable and of bounded length: both
	 * quote the manifest, which may be hostile, and both end up on one line of a terminal or a log.
	 */
	public ManifestProblem {
		path = ProblemText.line(path, ProblemText.MAX_LINE);
		message = ProblemText.line(message, ProblemText.MAX_LINE);
	}

	@Override
	public String toString() {
		String at = this.path.isEmpty() ? "" : " " + this.path + ":";
		return this.source + ":" + this.position + ":" + at + " " + this.message;
	}

}
