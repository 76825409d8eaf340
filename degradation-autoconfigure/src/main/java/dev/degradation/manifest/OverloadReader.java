package dev.degradation.manifest;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import static dev.degradation.manifest.ManifestKeys.CONCURRENCY_LIMIT;
import static dev.degradation.manifest.ManifestKeys.HYSTERESIS_SECONDS;
import static dev.degradation.manifest.ManifestKeys.MAX_QUEUE_MS;
import static dev.degradation.manifest.ManifestKeys.OVERLOAD;
import static dev.degradation.manifest.ManifestKeys.REFUSAL_STATUS;
import static dev.degradation.manifest.ManifestKeys.RETRY_AFTER_SECONDS;

/**
 * Reads the optional {@code overload} section; without it the service admits every request, as
 * before.
 */
final class OverloadReader {

	private static final Set<String> KEYS = Set.of(CONCURRENCY_LIMIT, MAX_QUEUE_MS, RETRY_AFTER_SECONDS,
			HYSTERESIS_SECONDS, REFUSAL_STATUS);

	private final ValueReader values;

	OverloadReader(ValueReader values) {
		this.values = values;
	}

	@Nullable Overload read(YamlNode.Mapping root, Duration defaultHysteresis) {
		YamlNode.Entry entry = root.entries().get(OVERLOAD);
		if (entry == null) {
			return null;
		}
		if (entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull()) {
			return new Overload(null, Overload.STANDARD_MAX_QUEUE, Overload.STANDARD_RETRY_AFTER, defaultHysteresis,
					Overload.STANDARD_REFUSAL_STATUS);
		}
		YamlNode.Mapping overload = this.values.optionalMapping(root, OVERLOAD, OVERLOAD);
		if (overload == null) {
			return null;
		}
		this.values.checkKeys(overload, OVERLOAD, KEYS);
		Integer fixedLimit = readLimit(overload);
		Setting<Duration> maxQueue = this.values.duration(overload, OVERLOAD, MAX_QUEUE_MS, ChronoUnit.MILLIS, 0,
				60_000);
		Setting<Duration> retryAfter = this.values.duration(overload, OVERLOAD, RETRY_AFTER_SECONDS,
				ChronoUnit.SECONDS, 1, 3600);
		Setting<Duration> hysteresis = this.values.duration(overload, OVERLOAD, HYSTERESIS_SECONDS, ChronoUnit.SECONDS,
				0, Integer.MAX_VALUE);
		int refusalStatus = readRefusalStatus(overload);
		return new Overload(fixedLimit, maxQueue.valueOr(Overload.STANDARD_MAX_QUEUE),
				retryAfter.valueOr(Overload.STANDARD_RETRY_AFTER), hysteresis.valueOr(defaultHysteresis), refusalStatus);
	}

	private int readRefusalStatus(YamlNode.Mapping overload) {
		YamlNode.Entry entry = overload.entries().get(REFUSAL_STATUS);
		if (entry == null) {
			return Overload.STANDARD_REFUSAL_STATUS;
		}
		Long status = this.values.wholeNumber(overload, OVERLOAD, REFUSAL_STATUS, 100, 599).value();
		if (status == null) {
			return Overload.STANDARD_REFUSAL_STATUS;
		}
		if (!Overload.REFUSAL_STATUSES.contains(status.intValue())) {
			this.values.problems()
				.add(entry.value().position(), OVERLOAD + "." + REFUSAL_STATUS, "a refused request is answered "
						+ "503 (the service is overloaded) or 429 (the caller sends too much), not " + status);
			return Overload.STANDARD_REFUSAL_STATUS;
		}
		return status.intValue();
	}

	private @Nullable Integer readLimit(YamlNode.Mapping overload) {
		YamlNode.Entry entry = overload.entries().get(CONCURRENCY_LIMIT);
		if (entry == null) {
			return null;
		}
		if (entry.value() instanceof YamlNode.Scalar scalar && scalar.kind() == YamlNode.Kind.STRING) {
			// A placeholder may resolve to 'adaptive' or to a number.
			String text = this.values.text(scalar, OVERLOAD + "." + CONCURRENCY_LIMIT);
			if (text == null || Overload.ADAPTIVE.equals(text)) {
				return null;
			}
			try {
				long limit = Long.parseLong(text.trim());
				if (limit >= 1 && limit <= 10_000) {
					return (int) limit;
				}
			}
			catch (NumberFormatException ex) {
				// Reported below.
			}
			this.values.problems()
				.add(scalar.position(), OVERLOAD + "." + CONCURRENCY_LIMIT, ProblemText.quote(text)
						+ " is not a concurrency limit; use 'adaptive' (set by the service's latency) or a whole "
						+ "number from 1 to 10000" + Suggestions.hint(text, Set.of(Overload.ADAPTIVE)));
			return null;
		}
		Long limit = this.values.wholeNumber(overload, OVERLOAD, CONCURRENCY_LIMIT, 1, 10_000).value();
		return (limit != null) ? limit.intValue() : null;
	}

}
