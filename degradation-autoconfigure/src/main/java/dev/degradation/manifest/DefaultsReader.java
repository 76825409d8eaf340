package dev.degradation.manifest;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.degradation.manifest.ManifestKeys.DEFAULTS;
import static dev.degradation.manifest.ManifestKeys.FAILED_DEPENDENCY_SHEDS;
import static dev.degradation.manifest.ManifestKeys.HYSTERESIS_SECONDS;

/**
 * Reads the {@code defaults} section: the health check every dependency inherits, and the
 * settings of the shed level (its hysteresis, and what a failed dependency sheds).
 */
final class DefaultsReader {

	private static final Set<String> KEYS = HealthCheckSettings.keysWith(CallSettings.KEYS, HYSTERESIS_SECONDS,
			FAILED_DEPENDENCY_SHEDS);

	private final ValueReader values;

	DefaultsReader(ValueReader values) {
		this.values = values;
	}

	Defaults read(YamlNode.Mapping root) {
		ManifestDefaults standard = ManifestDefaults.STANDARD;
		YamlNode.Mapping defaults = this.values.optionalMapping(root, DEFAULTS, DEFAULTS);
		if (defaults == null) {
			return new Defaults(standard, HealthCheckSettings.STANDARD, CallSettings.none());
		}
		this.values.checkKeys(defaults, DEFAULTS, KEYS);
		HealthCheckSettings healthCheck = HealthCheckSettings.read(this.values, defaults, DEFAULTS)
			.over(HealthCheckSettings.STANDARD);
		Setting<Duration> hysteresis = this.values.duration(defaults, DEFAULTS, HYSTERESIS_SECONDS, ChronoUnit.SECONDS,
				0, Integer.MAX_VALUE);
		return new Defaults(new ManifestDefaults(healthCheck.healthCheck(standard.healthCheck()),
				hysteresis.valueOr(standard.hysteresis()), readShedScope(defaults, standard.failedDependencySheds())),
				healthCheck, CallSettings.read(this.values, defaults, DEFAULTS));
	}

	private ShedScope readShedScope(YamlNode.Mapping defaults, ShedScope fallback) {
		Setting<String> written = this.values.text(defaults, DEFAULTS, FAILED_DEPENDENCY_SHEDS);
		String value = written.value();
		if (value == null) {
			return fallback;
		}
		for (ShedScope scope : ShedScope.values()) {
			if (scope.key().equals(value)) {
				return scope;
			}
		}
		Set<String> scopes = Arrays.stream(ShedScope.values())
			.map(ShedScope::key)
			.collect(Collectors.toCollection(LinkedHashSet::new));
		this.values.problems()
			.add(Objects.requireNonNull(written.entry()).value().position(), written.path(),
					ProblemText.quote(value) + " is not a value of '" + FAILED_DEPENDENCY_SHEDS + "'; use one of "
							+ ValueReader.sorted(scopes) + Suggestions.hint(value, scopes));
		return fallback;
	}

	/**
	 * The {@code defaults} section as read.
	 *
	 * @param manifestDefaults the defaults of the manifest, with a standard value wherever the
	 * section has none to use
	 * @param healthCheck the health check settings as written, each standard where it is left out
	 * @param calls the call budget settings as written
	 */
	record Defaults(ManifestDefaults manifestDefaults, HealthCheckSettings healthCheck, CallSettings calls) {

	}

}
