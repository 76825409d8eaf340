package dev.degradation.manifest;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DefaultsReader.Defaults;
import dev.degradation.manifest.DependenciesReader.DeclaredDependency;
import dev.degradation.manifest.RouteReader.DeclaredRoute;
import dev.degradation.manifest.RouteReader.Requirement;
import dev.degradation.manifest.TiersReader.DeclaredTier;

import static dev.degradation.manifest.ManifestKeys.FAILURE_THRESHOLD;
import static dev.degradation.manifest.ManifestKeys.MIN_SAMPLES;
import static dev.degradation.manifest.ManifestKeys.RECOVERY_THRESHOLD;
import static dev.degradation.manifest.ManifestKeys.TIMEOUT_MS;
import static dev.degradation.manifest.ManifestKeys.WINDOW_SECONDS;

/**
 * The rules that relate values written in different places of a manifest, checked once every
 * section is read: the thresholds and the reachability of {@code min_samples} of each dependency
 * (on the values in effect for it, its own or inherited from {@code defaults}), the names in
 * {@code requires}, and the uniqueness of tier priorities and of routes. A value that is already
 * reported, or left unchecked, takes no part: a problem must be about a number the author wrote.
 */
final class ManifestRules {

	/**
	 * The name of a capture variable in a path pattern ({@code id} in {@code {id}} and
	 * {@code {id:\d+}}, {@code rest} in {@code {*rest}}): patterns that differ only there match the
	 * same requests.
	 */
	private static final Pattern CAPTURE_NAME = Pattern
		.compile("\\{(\\*?)\\p{javaJavaIdentifierStart}[^{}:]*(?=[:}])");

	private final Problems problems;

	ManifestRules(Problems problems) {
		this.problems = problems;
	}

	void check(Defaults defaults, List<DeclaredDependency> dependencies, List<DeclaredTier> tiers) {
		checkHealthChecks(defaults.healthCheck(), dependencies);
		Set<String> names = new LinkedHashSet<>();
		dependencies.forEach((dependency) -> names.add(dependency.name()));
		checkPriorities(tiers);
		Map<String, Route> routesByKey = new HashMap<>();
		for (DeclaredTier tier : tiers) {
			for (DeclaredRoute route : tier.routes()) {
				checkRequires(route, names);
				checkUnique(route, routesByKey);
			}
		}
	}

	/**
	 * Judge the health check rules on the values in effect for each dependency: its own where it
	 * writes them, those of {@code defaults} elsewhere. Defaults are no rule of their own: a
	 * combination that every dependency overrides is never in effect. A problem is reported where
	 * the author can fix it: at the dependency when it writes a value the rule involves, else once
	 * at {@code defaults}, for every dependency that inherits them whole.
	 */
	private void checkHealthChecks(HealthCheckSettings defaults, List<DeclaredDependency> dependencies) {
		boolean thresholdsInherited = false;
		boolean reachabilityInherited = false;
		for (DeclaredDependency dependency : dependencies) {
			HealthCheckSettings own = dependency.healthCheck();
			if (own == null) {
				continue;
			}
			HealthCheckSettings effective = own.over(defaults);
			if (firstWritten(own.recoveryThreshold(), own.failureThreshold()) != null) {
				checkThresholds(own, effective);
			}
			else {
				thresholdsInherited = true;
			}
			if (firstWritten(reachabilityKeys(own)) != null) {
				checkMinSamplesReachable(own, effective);
			}
			else {
				reachabilityInherited = true;
			}
		}
		if (thresholdsInherited) {
			checkThresholds(defaults, defaults);
		}
		if (reachabilityInherited) {
			checkMinSamplesReachable(defaults, defaults);
		}
	}

	/**
	 * A recovery threshold at or above the failure threshold would let a dependency flap between
	 * failed and recovered on one probe.
	 * @param written the settings of the mapping to report in: a value it does not write is the
	 * default
	 * @param effective the settings in effect
	 */
	private void checkThresholds(HealthCheckSettings written, HealthCheckSettings effective) {
		Double failure = effective.failureThreshold().value();
		Double recovery = effective.recoveryThreshold().value();
		if (failure == null || recovery == null || recovery < failure) {
			return;
		}
		// Recovery first, as it is the one said to be wrong.
		Setting<?> at = firstWritten(written.recoveryThreshold(), written.failureThreshold());
		if (at != null) {
			this.problems.add(position(at), at.path(), "'" + RECOVERY_THRESHOLD + "' (" + recovery
					+ (written.recoveryThreshold().written() ? "" : ", the default") + ") must be lower than '"
					+ FAILURE_THRESHOLD + "' (" + failure + (written.failureThreshold().written() ? "" : ", the default")
					+ ") so that a dependency cannot flap between failed and recovered on one probe");
		}
	}

	/**
	 * Probes of one dependency start an interval after the previous one ended, and a probe that
	 * gets no answer ends at its timeout: while a dependency hangs, its window holds only so many
	 * results. With fewer than {@code min_samples} a hanging dependency would never be judged failed.
	 * @param written the settings of the mapping to report in
	 * @param effective the settings in effect
	 */
	private void checkMinSamplesReachable(HealthCheckSettings written, HealthCheckSettings effective) {
		if (effective.window().value() == null || effective.interval().value() == null
				|| effective.timeout().value() == null || effective.minSamples().value() == null) {
			return;
		}
		long window = effective.window().value().toSeconds();
		long interval = effective.interval().value().toMillis();
		long timeout = effective.timeout().value().toMillis();
		int minSamples = effective.minSamples().value();
		// Rounded down: the time a probe takes to be aborted, recorded and scheduled again makes the
		// real cycle a little longer than interval + timeout.
		long whileHanging = window * 1000 / (interval + timeout);
		if (minSamples <= whileHanging) {
			return;
		}
		Setting<?> at = firstWritten(reachabilityKeys(written));
		if (at != null) {
			this.problems.add(position(at), at.path(), "'" + MIN_SAMPLES + "' (" + minSamples
					+ ") can never be reached while the dependency does not answer: a " + window
					+ " s window then holds only " + whileHanging + ((whileHanging == 1) ? " probe" : " probes")
					+ ", each taking its " + timeout + " ms timeout and the " + interval
					+ " ms interval, so a hanging dependency would never be judged failed; lower '" + MIN_SAMPLES
					+ "', widen '" + WINDOW_SECONDS + "' or shorten '" + TIMEOUT_MS + "'");
		}
	}

	/**
	 * The keys of the reachability of {@code min_samples}, in the order a problem prefers to point
	 * at them.
	 */
	private static Setting<?>[] reachabilityKeys(HealthCheckSettings settings) {
		return new Setting<?>[] { settings.minSamples(), settings.window(), settings.timeout(),
				settings.interval() };
	}

	private static @Nullable Setting<?> firstWritten(Setting<?>... settings) {
		for (Setting<?> setting : settings) {
			if (setting.written()) {
				return setting;
			}
		}
		return null;
	}

	private static Position position(Setting<?> written) {
		YamlNode.Entry entry = written.entry();
		if (entry == null) {
			throw new IllegalStateException("'" + written.path() + "' is not written");
		}
		return entry.value().position();
	}

	/**
	 * Each tier needs its own priority, so that the shed order is unambiguous.
	 */
	private void checkPriorities(List<DeclaredTier> tiers) {
		Map<Long, YamlNode.Entry> tiersByPriority = new HashMap<>();
		for (DeclaredTier tier : tiers) {
			Long priority = tier.priority().value();
			if (priority == null) {
				continue;
			}
			YamlNode.Entry previous = tiersByPriority.putIfAbsent(priority, tier.entry());
			if (previous != null) {
				this.problems.add(position(tier.priority()), tier.priority().path(),
						"priority " + priority + " is already used by tier " + ProblemText.quote(previous.key())
								+ " (line " + previous.keyPosition().line()
								+ "); give each tier its own priority so the shed order is unambiguous");
			}
		}
	}

	/**
	 * Every name in {@code requires} names a declared dependency, once.
	 */
	private void checkRequires(DeclaredRoute route, Set<String> names) {
		Set<String> seen = new LinkedHashSet<>();
		for (Requirement requirement : route.requires()) {
			String name = requirement.name();
			if (!names.contains(name)) {
				this.problems.add(requirement.position(), requirement.path(),
						ProblemText.quote(name) + " is not a declared dependency; "
								+ (names.isEmpty() ? "declare it under 'dependencies'"
										: "declared: " + String.join(", ", names) + Suggestions.hint(name, names)));
			}
			else if (!seen.add(name)) {
				this.problems.add(requirement.position(), requirement.path(),
						ProblemText.quote(name) + " is listed twice");
			}
		}
	}

	/**
	 * A route (method and pattern, capture names aside) may appear once in the whole manifest.
	 */
	private void checkUnique(DeclaredRoute declared, Map<String, Route> routesByKey) {
		Route route = declared.route();
		if (route == null) {
			return;
		}
		String key = route.method() + " " + CAPTURE_NAME.matcher(route.path()).replaceAll("{$1");
		Route previous = routesByKey.putIfAbsent(key, route);
		if (previous != null) {
			String same = previous.path().equals(route.path()) ? "is already declared"
					: "matches the same requests as " + previous + ", declared";
			this.problems.add(route.position(), declared.path(), "route " + route + " " + same + " in tier "
					+ ProblemText.quote(previous.tier()) + " (line " + previous.position().line()
					+ "); a route may appear once");
		}
	}

}
