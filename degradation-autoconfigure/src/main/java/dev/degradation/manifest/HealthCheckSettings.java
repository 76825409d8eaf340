package dev.degradation.manifest;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.degradation.manifest.ManifestKeys.FAILURE_THRESHOLD;
import static dev.degradation.manifest.ManifestKeys.HEALTH_CHECK_INTERVAL_MS;
import static dev.degradation.manifest.ManifestKeys.MIN_SAMPLES;
import static dev.degradation.manifest.ManifestKeys.RECOVERY_THRESHOLD;
import static dev.degradation.manifest.ManifestKeys.TIMEOUT_MS;
import static dev.degradation.manifest.ManifestKeys.WINDOW_SECONDS;

/**
 * The health check keys as one mapping ({@code defaults} or a dependency) sets them, each with
 * where it is written, so that the rules that relate them can judge the values in effect and
 * point at the one the author can change.
 *
 * @param interval {@code health_check_interval_ms}
 * @param timeout {@code timeout_ms}
 * @param window {@code window_seconds}
 * @param minSamples {@code min_samples}
 * @param failureThreshold {@code failure_threshold}
 * @param recoveryThreshold {@code recovery_threshold}
 */
record HealthCheckSettings(Setting<Duration> interval, Setting<Duration> timeout, Setting<Duration> window,
		Setting<Integer> minSamples, Setting<Double> failureThreshold, Setting<Double> recoveryThreshold) {

	/** The health check keys, which {@code defaults} and every dependency may write. */
	static final Set<String> KEYS = Set.of(HEALTH_CHECK_INTERVAL_MS, TIMEOUT_MS, WINDOW_SECONDS, MIN_SAMPLES,
			FAILURE_THRESHOLD, RECOVERY_THRESHOLD);

	/** What applies where neither {@code defaults} nor a dependency writes a key. */
	static final HealthCheckSettings STANDARD = of(HealthCheck.STANDARD);

	/**
	 * Return the health check keys and the other keys of a mapping that holds them.
	 */
	static Set<String> keysWith(Set<String> more, String... others) {
		return Stream.of(KEYS.stream(), more.stream(), Stream.of(others))
			.flatMap((keys) -> keys)
			.collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Return settings that nobody wrote, with the values of a health check.
	 */
	private static HealthCheckSettings of(HealthCheck check) {
		return new HealthCheckSettings(Setting.unwritten(check.interval()), Setting.unwritten(check.timeout()),
				Setting.unwritten(check.window()), Setting.unwritten(check.minSamples()),
				Setting.unwritten(check.failureThreshold()), Setting.unwritten(check.recoveryThreshold()));
	}

	/**
	 * Read the health check keys of {@code defaults} or of one dependency.
	 */
	static HealthCheckSettings read(ValueReader values, YamlNode.Mapping mapping, String path) {
		return new HealthCheckSettings(
				values.duration(mapping, path, HEALTH_CHECK_INTERVAL_MS, ChronoUnit.MILLIS, 1, Integer.MAX_VALUE),
				values.duration(mapping, path, TIMEOUT_MS, ChronoUnit.MILLIS, 1, Integer.MAX_VALUE),
				values.duration(mapping, path, WINDOW_SECONDS, ChronoUnit.SECONDS, 1, 86_400),
				values.wholeNumber(mapping, path, MIN_SAMPLES, 1, 10_000).map(Long::intValue),
				values.fraction(mapping, path, FAILURE_THRESHOLD, false),
				values.fraction(mapping, path, RECOVERY_THRESHOLD, true));
	}

	/**
	 * Return the settings in effect where these override {@code inherited} key by key.
	 */
	HealthCheckSettings over(HealthCheckSettings inherited) {
		return new HealthCheckSettings(this.interval.or(inherited.interval), this.timeout.or(inherited.timeout),
				this.window.or(inherited.window), this.minSamples.or(inherited.minSamples),
				this.failureThreshold.or(inherited.failureThreshold),
				this.recoveryThreshold.or(inherited.recoveryThreshold));
	}

	/**
	 * Return the health check these settings give, with a value of {@code base} wherever they have
	 * none to use.
	 */
	HealthCheck healthCheck(HealthCheck base) {
		return new HealthCheck(this.interval.valueOr(base.interval()), this.timeout.valueOr(base.timeout()),
				this.window.valueOr(base.window()), this.minSamples.valueOr(base.minSamples()),
				this.failureThreshold.valueOr(base.failureThreshold()),
				this.recoveryThreshold.valueOr(base.recoveryThreshold()));
	}

}
