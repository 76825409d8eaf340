package dev.degradation.test.contract;

import java.net.URI;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Route;

/**
 * A manifest route as the contract tests name it: what it is and where it is declared.
 *
 * @param route the route
 * @param index its index in {@code DegradationManifest.routes()}
 * @param priority the priority of its tier: the lowest level that sheds it
 * @param yamlPath its YAML path, such as {@code tiers.enhanced.routes[0]}
 * @param source the description of the manifest file
 */
record DeclaredRoute(Route route, int index, int priority, String yamlPath, String source) {

	private static final String CLASSPATH = "classpath:";

	/**
	 * Return where the route is declared, as an editor jumps to it.
	 * @return the file, line, column and YAML path
	 */
	String declaredAt() {
		return this.source + ":" + this.route.position() + " (" + this.yamlPath + ")";
	}

	/**
	 * Return the route, its tier and where it is declared, for failure messages.
	 * @return the description
	 */
	String describe() {
		return this.route + " of tier " + this.route.tier() + " (priority " + this.priority + "), declared at "
				+ declaredAt();
	}

	/**
	 * Return the route's declaration as a test source that IDEs open, when the manifest is a
	 * class path resource or a file.
	 * @return the URI, or {@code null}
	 */
	@Nullable URI sourceUri() {
		return sourceUri(this.source,
				"?line=" + this.route.position().line() + "&column=" + this.route.position().column());
	}

	/**
	 * Return a manifest as a test source.
	 * @param source the description of the manifest file
	 * @param query the query that points into the file, or an empty string
	 * @return the URI, or {@code null} when the manifest is neither a class path resource nor a
	 * file
	 */
	static @Nullable URI sourceUri(String source, String query) {
		try {
			if (source.startsWith(CLASSPATH)) {
				String path = source.substring(CLASSPATH.length());
				return URI.create(CLASSPATH + (path.startsWith("/") ? "" : "/") + path + query);
			}
			if (source.startsWith("file:")) {
				return URI.create(source + query);
			}
		}
		catch (IllegalArgumentException ex) {
			// A location that is no URI (a space in a path, say) only loses the link.
		}
		return null;
	}

}
