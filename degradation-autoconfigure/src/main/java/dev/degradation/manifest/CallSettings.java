package dev.degradation.manifest;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

import static dev.degradation.manifest.ManifestKeys.BACKOFF_MS;
import static dev.degradation.manifest.ManifestKeys.BREAKER;
import static dev.degradation.manifest.ManifestKeys.BUDGET_MS;
import static dev.degradation.manifest.ManifestKeys.CALL_TIMEOUT_MS;
import static dev.degradation.manifest.ManifestKeys.FAILURE_RATE_THRESHOLD;
import static dev.degradation.manifest.ManifestKeys.MAX_ATTEMPTS;
import static dev.degradation.manifest.ManifestKeys.MAX_RETRY_AFTER_MS;
import static dev.degradation.manifest.ManifestKeys.METHODS;
import static dev.degradation.manifest.ManifestKeys.HALF_OPEN_CALLS;
import static dev.degradation.manifest.ManifestKeys.MINIMUM_CALLS;
import static dev.degradation.manifest.ManifestKeys.OPEN_MS;
import static dev.degradation.manifest.ManifestKeys.RETRY;
import static dev.degradation.manifest.ManifestKeys.SLOW_CALL_DURATION_MS;
import static dev.degradation.manifest.ManifestKeys.SLOW_CALL_RATE_THRESHOLD;
import static dev.degradation.manifest.ManifestKeys.WINDOW_SIZE;

/**
 * The call budget keys ({@code call_timeout_ms}, {@code breaker:}, {@code retry:}) as one mapping
 * ({@code defaults} or a dependency) writes them, so that a dependency overrides
 * {@code defaults} key by key, also inside {@code breaker} and {@code retry}.
 */
record CallSettings(Setting<Duration> timeout, Setting<Double> failureRate, Setting<Double> slowCallRate,
		Setting<Duration> slowCallDuration, Setting<Integer> windowSize, Setting<Integer> minimumCalls,
		Setting<Duration> open, Setting<Integer> halfOpenCalls, Setting<Integer> maxAttempts, Setting<Duration> backoff,
		Setting<Duration> maxRetryAfter, Setting<Duration> budget, Setting<Set<String>> methods) {

	/** The call budget keys of a dependency or of {@code defaults}. */
	static final Set<String> KEYS = Set.of(CALL_TIMEOUT_MS, BREAKER, RETRY);

	private static final Set<String> BREAKER_KEYS = Set.of(FAILURE_RATE_THRESHOLD, SLOW_CALL_RATE_THRESHOLD,
			SLOW_CALL_DURATION_MS, WINDOW_SIZE, MINIMUM_CALLS, OPEN_MS, HALF_OPEN_CALLS);

	private static final Set<String> RETRY_KEYS = Set.of(MAX_ATTEMPTS, BACKOFF_MS, MAX_RETRY_AFTER_MS, BUDGET_MS,
			METHODS);

	private static final Set<String> HTTP_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE",
			"OPTIONS", "TRACE");

	private static final YamlNode.Mapping EMPTY = new YamlNode.Mapping(new Position(0, 0), java.util.Map.of());

	/**
	 * Read the call budget keys of {@code defaults} or of one dependency.
	 */
	static CallSettings read(ValueReader values, YamlNode.Mapping mapping, String path) {
		YamlNode.Mapping breaker = section(values, mapping, path, BREAKER, BREAKER_KEYS);
		String breakerPath = path + "." + BREAKER;
		YamlNode.Mapping retry = section(values, mapping, path, RETRY, RETRY_KEYS);
		String retryPath = path + "." + RETRY;
		return new CallSettings(
				values.duration(mapping, path, CALL_TIMEOUT_MS, ChronoUnit.MILLIS, 1, Integer.MAX_VALUE),
				values.fraction(breaker, breakerPath, FAILURE_RATE_THRESHOLD, false),
				values.fraction(breaker, breakerPath, SLOW_CALL_RATE_THRESHOLD, false),
				values.duration(breaker, breakerPath, SLOW_CALL_DURATION_MS, ChronoUnit.MILLIS, 1, Integer.MAX_VALUE),
				values.wholeNumber(breaker, breakerPath, WINDOW_SIZE, 1, 10_000).map(Long::intValue),
				values.wholeNumber(breaker, breakerPath, MINIMUM_CALLS, 1, 10_000).map(Long::intValue),
				values.duration(breaker, breakerPath, OPEN_MS, ChronoUnit.MILLIS, 1, Integer.MAX_VALUE),
				values.wholeNumber(breaker, breakerPath, HALF_OPEN_CALLS, 1, 100).map(Long::intValue),
				values.wholeNumber(retry, retryPath, MAX_ATTEMPTS, 1, 10).map(Long::intValue),
				values.duration(retry, retryPath, BACKOFF_MS, ChronoUnit.MILLIS, 0, Integer.MAX_VALUE),
				values.duration(retry, retryPath, MAX_RETRY_AFTER_MS, ChronoUnit.MILLIS, 0, Integer.MAX_VALUE),
				values.duration(retry, retryPath, BUDGET_MS, ChronoUnit.MILLIS, 1, Integer.MAX_VALUE),
				methods(values, retry, retryPath));
	}

	/**
	 * Return settings that nobody wrote.
	 */
	static CallSettings none() {
		return new CallSettings(absent(), absent(), absent(), absent(), absent(), absent(), absent(), absent(),
				absent(), absent(), absent(), absent(), absent());
	}

	private static YamlNode.Mapping section(ValueReader values, YamlNode.Mapping mapping, String path, String key,
			Set<String> keys) {
		String sectionPath = path + "." + key;
		YamlNode.Mapping section = values.optionalMapping(mapping, key, sectionPath);
		if (section == null) {
			return EMPTY;
		}
		values.checkKeys(section, sectionPath, keys);
		return section;
	}

	private static Setting<Set<String>> methods(ValueReader values, YamlNode.Mapping retry, String path) {
		String keyPath = path + "." + METHODS;
		YamlNode.Entry entry = retry.entries().get(METHODS);
		if (entry == null) {
			return new Setting<>(keyPath, null, null);
		}
		if (!(entry.value() instanceof YamlNode.Sequence sequence)) {
			values.problems()
				.add(entry.value().position(), keyPath,
						"'" + METHODS + "' must be a list of HTTP methods, such as [GET, PUT], but it is "
								+ entry.value().describe());
			return new Setting<>(keyPath, entry, null);
		}
		Set<String> methods = new LinkedHashSet<>();
		boolean usable = true;
		for (int i = 0; i < sequence.items().size(); i++) {
			YamlNode item = sequence.items().get(i);
			String itemPath = keyPath + "[" + i + "]";
			String text = values.text(item, itemPath);
			if (text == null) {
				usable = false;
				continue;
			}
			// Methods are read in any case, as in routes.
			String method = text.toUpperCase(Locale.ROOT);
			if (!HTTP_METHODS.contains(method)) {
				values.problems()
					.add(item.position(), itemPath, ProblemText.quote(text) + " is not an HTTP method; use one of "
							+ ValueReader.sorted(HTTP_METHODS) + Suggestions.hint(method, HTTP_METHODS));
				usable = false;
				continue;
			}
			methods.add(method);
		}
		return new Setting<>(keyPath, entry, usable ? Set.copyOf(methods) : null);
	}

	/**
	 * Return the settings in effect where these override {@code inherited} key by key.
	 */
	CallSettings over(CallSettings inherited) {
		return new CallSettings(this.timeout.or(inherited.timeout), this.failureRate.or(inherited.failureRate),
				this.slowCallRate.or(inherited.slowCallRate), this.slowCallDuration.or(inherited.slowCallDuration),
				this.windowSize.or(inherited.windowSize), this.minimumCalls.or(inherited.minimumCalls),
				this.open.or(inherited.open), this.halfOpenCalls.or(inherited.halfOpenCalls),
				this.maxAttempts.or(inherited.maxAttempts),
				this.backoff.or(inherited.backoff), this.maxRetryAfter.or(inherited.maxRetryAfter),
				this.budget.or(inherited.budget), this.methods.or(inherited.methods));
	}

	/**
	 * Return the call budget these settings give for a dependency whose {@code timeout_ms} in
	 * effect is {@code dependencyTimeout}, with a standard value wherever they have none.
	 */
	CallBudget budget(Duration dependencyTimeout) {
		Duration callTimeout = this.timeout.valueOr(dependencyTimeout);
		CallBudget standard = CallBudget.standard(callTimeout);
		BreakerPolicy breaker = standard.breaker();
		RetryPolicy retry = standard.retry();
		return new CallBudget(callTimeout,
				new BreakerPolicy(this.failureRate.valueOr(breaker.failureRateThreshold()),
						this.slowCallRate.valueOr(breaker.slowCallRateThreshold()),
						this.slowCallDuration.valueOr(breaker.slowCallDuration()),
						this.windowSize.valueOr(breaker.windowSize()), this.minimumCalls.valueOr(breaker.minimumCalls()),
						this.open.valueOr(breaker.open()), this.halfOpenCalls.valueOr(breaker.halfOpenCalls())),
				new RetryPolicy(this.maxAttempts.valueOr(retry.maxAttempts()), this.backoff.valueOr(retry.backoff()),
						this.maxRetryAfter.valueOr(retry.maxRetryAfter()), this.budget.valueOr(retry.budget()),
						this.methods.valueOr(retry.methods())));
	}

	private static <T> Setting<T> absent() {
		return new Setting<>("", null, null);
	}

}
