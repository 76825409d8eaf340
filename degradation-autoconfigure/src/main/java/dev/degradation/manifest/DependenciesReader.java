package dev.degradation.manifest;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import static dev.degradation.manifest.ManifestKeys.DEPENDENCIES;
import static dev.degradation.manifest.ManifestKeys.HEALTH_URL;
import static dev.degradation.manifest.ManifestKeys.TIMEOUT_MS;

/**
 * Reads the {@code dependencies} section: each dependency's health URL and its overrides of the
 * health check in {@code defaults}.
 */
final class DependenciesReader {

	private static final Set<String> KEYS = HealthCheckSettings.keysWith(HEALTH_URL);

	private final ValueReader values;

	DependenciesReader(ValueReader values) {
		this.values = values;
	}

	/**
	 * Read every declared dependency, also those with problems of their own, so that a route
	 * requiring them is not told they are undeclared.
	 */
	List<DeclaredDependency> read(YamlNode.Mapping root, HealthCheck defaults) {
		YamlNode.Mapping dependencies = this.values.optionalMapping(root, DEPENDENCIES, DEPENDENCIES);
		if (dependencies == null) {
			return List.of();
		}
		List<DeclaredDependency> result = new ArrayList<>();
		for (YamlNode.Entry entry : dependencies.entries().values()) {
			String path = DEPENDENCIES + "." + entry.key();
			this.values.checkName(entry, path, "dependency");
			if (!(entry.value() instanceof YamlNode.Mapping dependency)) {
				this.values.problems()
					.add(entry.value().position(), path, "a dependency must be a mapping with '" + HEALTH_URL + "' and '"
							+ TIMEOUT_MS + "', but it is " + entry.value().describe());
				result.add(new DeclaredDependency(entry.key(), null, null));
				continue;
			}
			this.values.checkKeys(dependency, path, KEYS);
			URI healthUrl = readHealthUrl(dependency, path);
			HealthCheckSettings healthCheck = HealthCheckSettings.read(this.values, dependency, path);
			Dependency declared = (healthUrl != null) ? new Dependency(entry.key(), healthUrl,
					healthCheck.healthCheck(defaults), entry.keyPosition()) : null;
			result.add(new DeclaredDependency(entry.key(), healthCheck, declared));
		}
		return result;
	}

	private @Nullable URI readHealthUrl(YamlNode.Mapping dependency, String path) {
		YamlNode.Entry entry = dependency.entries().get(HEALTH_URL);
		if (entry == null) {
			this.values.problems()
				.add(dependency.position(), path + "." + HEALTH_URL, "missing '" + HEALTH_URL
						+ "': the absolute http(s) URL that answers 2xx when the dependency is healthy");
			return null;
		}
		String text = this.values.text(entry.value(), path + "." + HEALTH_URL);
		if (text == null) {
			return null;
		}
		String reason = "";
		try {
			URI uri = new URI(text);
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
			if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
				return uri;
			}
		}
		catch (URISyntaxException ex) {
			// The index is not given: for the authority it is where the authority starts, not the culprit.
			reason = " (" + ex.getReason().toLowerCase(Locale.ROOT) + ")";
		}
		this.values.problems()
			.add(entry.value().position(), path + "." + HEALTH_URL, ProblemText.quote(text)
					+ " is not an absolute http or https URL" + reason
					+ "; write one such as http://recommendations:8080/healthz");
		return null;
	}

	/**
	 * One key of {@code dependencies} as read.
	 *
	 * @param name the name routes use in {@code requires}, valid or not
	 * @param healthCheck the health check keys the dependency writes, or {@code null} when it is
	 * not a mapping
	 * @param dependency the dependency, or {@code null} when it has a problem that leaves none
	 */
	record DeclaredDependency(String name, @Nullable HealthCheckSettings healthCheck,
			@Nullable Dependency dependency) {

	}

}
