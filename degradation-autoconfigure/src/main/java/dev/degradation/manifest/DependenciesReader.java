package dev.degradation.manifest;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import static dev.degradation.manifest.ManifestKeys.BASE_URL;
import static dev.degradation.manifest.ManifestKeys.DEPENDENCIES;
import static dev.degradation.manifest.ManifestKeys.HEALTH_INDICATOR;
import static dev.degradation.manifest.ManifestKeys.HEALTH_URL;
import static dev.degradation.manifest.ManifestKeys.TIMEOUT_MS;

/**
 * Reads the {@code dependencies} section: what judges each dependency (a health URL, a health
 * indicator, or its calls alone), where the application calls it, and its overrides of the health
 * check and of the call budget in {@code defaults}.
 */
final class DependenciesReader {

	private static final Set<String> KEYS = HealthCheckSettings.keysWith(CallSettings.KEYS, HEALTH_URL,
			HEALTH_INDICATOR, BASE_URL);

	private final ValueReader values;

	private final List<HealthSourceKey> sourceKeys;

	private final Set<String> keys;

	/**
	 * Create a reader of the dependencies.
	 * @param sourceKeys the keys of the application's health sources, each a judge of the
	 * dependency as {@code health_url} is
	 */
	DependenciesReader(ValueReader values, List<HealthSourceKey> sourceKeys) {
		this.values = values;
		this.sourceKeys = List.copyOf(sourceKeys);
		Set<String> keys = new LinkedHashSet<>(KEYS);
		sourceKeys.forEach((key) -> keys.add(key.name()));
		this.keys = Set.copyOf(keys);
	}

	/**
	 * Read every declared dependency, also those with problems of their own, so that a route
	 * requiring them is not told they are undeclared.
	 */
	List<DeclaredDependency> read(YamlNode.Mapping root, HealthCheck defaults, CallSettings defaultCalls) {
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
			this.values.checkKeys(dependency, path, this.keys);
			Map<String, String> sourceKeys = new LinkedHashMap<>();
			boolean sourceKeysUsable = readSourceKeys(dependency, path, sourceKeys);
			boolean judged = dependency.entries().containsKey(HEALTH_URL)
					|| dependency.entries().containsKey(HEALTH_INDICATOR) || sourceKeysWritten(dependency) > 0;
			boolean called = dependency.entries().containsKey(BASE_URL);
			URI healthUrl = (judged || !called) ? readUrl(dependency, path, HEALTH_URL, true) : null;
			Setting<String> healthIndicator = this.values.text(dependency, path, HEALTH_INDICATOR);
			URI baseUrl = called ? readUrl(dependency, path, BASE_URL, false) : null;
			boolean usable = checkJudge(dependency, path, healthUrl, healthIndicator, called, baseUrl)
					&& checkOneJudge(dependency, path) && sourceKeysUsable;
			HealthCheckSettings healthCheck = HealthCheckSettings.read(this.values, dependency, path);
			HealthCheck effective = healthCheck.healthCheck(defaults);
			CallBudget calls = CallSettings.read(this.values, dependency, path)
				.over(defaultCalls)
				.budget(effective.timeout());
			Dependency declared = usable ? new Dependency(entry.key(), healthUrl, effective, entry.keyPosition(),
					healthIndicator.value(), baseUrl, calls, sourceKeys) : null;
			result.add(new DeclaredDependency(entry.key(), healthCheck, declared));
		}
		return result;
	}

	/**
	 * Check that exactly one of {@code health_url} and {@code health_indicator} judges the
	 * dependency, or neither when it has a {@code base_url}, and that what is written is usable.
	 */
	private boolean checkJudge(YamlNode.Mapping dependency, String path, @Nullable URI healthUrl,
			Setting<String> healthIndicator, boolean called, @Nullable URI baseUrl) {
		YamlNode.Entry urlEntry = dependency.entries().get(HEALTH_URL);
		if (urlEntry != null && healthIndicator.written()) {
			this.values.problems()
				.add(java.util.Objects.requireNonNull(healthIndicator.entry()).keyPosition(), healthIndicator.path(), "a dependency is judged by '"
						+ HEALTH_URL + "' or by '" + HEALTH_INDICATOR + "', not both; remove one of them");
			return false;
		}
		if (urlEntry == null && !healthIndicator.written() && !called && sourceKeysWritten(dependency) == 0) {
			// readUrl has reported the missing health_url.
			return false;
		}
		boolean urlUsable = urlEntry == null || healthUrl != null;
		boolean indicatorUsable = !healthIndicator.written() || healthIndicator.value() != null;
		boolean baseUsable = !called || baseUrl != null;
		return urlUsable && indicatorUsable && baseUsable;
	}

	/**
	 * Read the keys of the application's health sources that the dependency writes.
	 * @return whether every one written has a usable value
	 */
	private boolean readSourceKeys(YamlNode.Mapping dependency, String path, Map<String, String> read) {
		boolean usable = true;
		for (HealthSourceKey key : this.sourceKeys) {
			Setting<String> value = this.values.text(dependency, path, key.name());
			if (value.written()) {
				if (value.value() != null) {
					read.put(key.name(), value.value());
				}
				else {
					usable = false;
				}
			}
		}
		return usable;
	}

	private int sourceKeysWritten(YamlNode.Mapping dependency) {
		return (int) this.sourceKeys.stream().filter((key) -> dependency.entries().containsKey(key.name())).count();
	}

	/**
	 * Check that a key of a health source is the dependency's only judge: two judges would leave
	 * the order of the sources to decide which one counts. Both {@code health_url} and
	 * {@code health_indicator} are {@link #checkJudge}'s.
	 */
	private boolean checkOneJudge(YamlNode.Mapping dependency, String path) {
		List<String> judges = new ArrayList<>();
		for (String key : List.of(HEALTH_URL, HEALTH_INDICATOR)) {
			if (dependency.entries().containsKey(key)) {
				judges.add(key);
			}
		}
		this.sourceKeys.stream()
			.map(HealthSourceKey::name)
			.filter((key) -> dependency.entries().containsKey(key))
			.forEach(judges::add);
		if (judges.size() < 2 || sourceKeysWritten(dependency) == 0) {
			return true;
		}
		YamlNode.Entry last = dependency.entries().get(judges.get(judges.size() - 1));
		this.values.problems()
			.add(last.keyPosition(), path + "." + last.key(), "a dependency is judged by one of "
					+ judges.stream().map((key) -> "'" + key + "'").toList() + ", not several; remove all but one");
		return false;
	}

	private @Nullable URI readUrl(YamlNode.Mapping dependency, String path, String key, boolean health) {
		YamlNode.Entry entry = dependency.entries().get(key);
		if (entry == null) {
			if (health && !dependency.entries().containsKey(HEALTH_INDICATOR) && sourceKeysWritten(dependency) == 0) {
				this.values.problems()
					.add(dependency.position(), path + "." + HEALTH_URL, "missing '" + HEALTH_URL
							+ "': the absolute http(s) URL that answers 2xx when the dependency is healthy (or write '"
							+ HEALTH_INDICATOR + "' to judge it by a Spring Boot health indicator, or '" + BASE_URL
							+ "' to judge it by the application's calls alone" + sourceKeysHint() + ")");
			}
			return null;
		}
		String text = this.values.text(entry.value(), path + "." + key);
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
			if (scheme.equals(ServiceUrl.SCHEME)) {
				String problem = ServiceUrl.problem(uri);
				if (problem == null) {
					return uri;
				}
				this.values.problems()
					.add(entry.value().position(), path + "." + key, ProblemText.quote(text)
							+ " names a service by id, but it " + problem + "; write one such as "
							+ (health ? "lb://recommendations/healthz" : "lb://recommendations"));
				return null;
			}
		}
		catch (URISyntaxException ex) {
			// The index is not given: for the authority it is where the authority starts, not the culprit.
			reason = " (" + ex.getReason().toLowerCase(Locale.ROOT) + ")";
		}
		this.values.problems()
			.add(entry.value().position(), path + "." + key, ProblemText.quote(text)
					+ " is not an absolute http or https URL" + reason + "; write one such as "
					+ (health ? "http://recommendations:8080/healthz" : "http://recommendations:8080")
					+ ", or name a service by id, as "
					+ (health ? "lb://recommendations/healthz" : "lb://recommendations"));
		return null;
	}

	private String sourceKeysHint() {
		return this.sourceKeys.stream()
			.map((key) -> ", or '" + key.name() + "': " + key.meaning())
			.reduce("", String::concat);
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
