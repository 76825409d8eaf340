package dev.degradation.manifest;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static dev.degradation.manifest.ManifestLoading.load;
import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static dev.degradation.manifest.ManifestLoading.problem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health check keys: set in {@code defaults}, inherited by every dependency, and overridden
 * by a dependency key by key, with the same rules wherever they are written.
 */
class HealthCheckSettingsTests {

	@Test
	void windowAndMinSamplesDefaultTo30SecondsAnd3() {
		DegradationManifest manifest = load("""
				dependencies:
				  catalog: { health_url: "http://catalog:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""");
		HealthCheck check = manifest.dependency("catalog").orElseThrow().healthCheck();
		assertThat(check.window()).isEqualTo(Duration.ofSeconds(30));
		assertThat(check.minSamples()).isEqualTo(3);
		assertThat(check).isEqualTo(HealthCheck.STANDARD);
	}

	@Test
	void dependenciesInheritTheDefaultsAndOverrideThemKeyByKey() {
		DegradationManifest manifest = load("""
				defaults:
				  health_check_interval_ms: 2000
				  timeout_ms: 800
				  window_seconds: 20
				  min_samples: 4
				  failure_threshold: 0.5
				  recovery_threshold: 0.1
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				  search:
				    health_url: http://search:8080/healthz
				    health_check_interval_ms: 1000
				    timeout_ms: 300
				    window_seconds: 10
				    min_samples: 5
				    failure_threshold: 0.3
				    recovery_threshold: 0.05
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog, search] }
				""");
		assertThat(manifest.dependency("catalog").orElseThrow().healthCheck()).isEqualTo(new HealthCheck(
				Duration.ofMillis(2000), Duration.ofMillis(800), Duration.ofSeconds(20), 4, 0.5, 0.1));
		assertThat(manifest.dependency("search").orElseThrow().healthCheck()).isEqualTo(new HealthCheck(
				Duration.ofMillis(1000), Duration.ofMillis(300), Duration.ofSeconds(10), 5, 0.3, 0.05));
		assertThat(manifest.defaults().healthCheck().window()).isEqualTo(Duration.ofSeconds(20));
	}

	@Test
	void aDependencyThresholdThatCrossesTheInheritedOneIsReportedWhereItIsWritten() {
		assertThat(onlyProblem("""
				defaults:
				  failure_threshold: 0.5
				  recovery_threshold: 0.2
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    failure_threshold: 0.2
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(7, 24, "dependencies.catalog.failure_threshold",
				"'recovery_threshold' (0.2, the default) must be lower than 'failure_threshold' (0.2) so that a "
						+ "dependency cannot flap between failed and recovered on one probe"));
	}

	@Test
	void minSamplesMustBeAtLeastOne() {
		assertThat(onlyProblem("""
				defaults:
				  min_samples: 0
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop }
				""")).isEqualTo(problem(2, 16, "defaults.min_samples",
				"'min_samples' must be between 1 and 10000, but it is 0"));
	}

	@Test
	void windowSecondsMustBePositive() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    window_seconds: 0
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(4, 21, "dependencies.catalog.window_seconds",
				"'window_seconds' must be between 1 and 86400, but it is 0"));
	}

	@Test
	void minSamplesThatTheWindowCanNeverHoldAreReported() {
		assertThat(onlyProblem("""
				defaults:
				  health_check_interval_ms: 5000
				  window_seconds: 10
				  min_samples: 4
				dependencies:
				  catalog: { health_url: "http://catalog:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(4, 16, "defaults.min_samples",
				"'min_samples' (4) can never be reached while the dependency does not answer: a 10 s window then "
						+ "holds only 1 probe, each taking its 2000 ms timeout and the 5000 ms interval, so a hanging "
						+ "dependency would never be judged failed; lower 'min_samples', widen 'window_seconds' or "
						+ "shorten 'timeout_ms'"));
	}

	@Test
	void aDependencyWhoseIntervalMakesTheInheritedMinSamplesUnreachableIsReportedAtItsInterval() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    health_check_interval_ms: 20000
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(4, 31, "dependencies.catalog.health_check_interval_ms",
				"'min_samples' (3) can never be reached while the dependency does not answer: a 30 s window then "
						+ "holds only 1 probe, each taking its 2000 ms timeout and the 20000 ms interval, so a hanging "
						+ "dependency would never be judged failed; lower 'min_samples', widen 'window_seconds' or "
						+ "shorten 'timeout_ms'"));
	}

	@Test
	void aDependencyWhoseTimeoutLeavesTooFewProbesInTheWindowWhileItHangsIsReportedAtItsTimeout() {
		// 200 ms apart, the window would hold 11 answered probes; but each probe of a hanging
		// dependency takes its 1000 ms timeout, and a 2 s window then holds only 1 of them.
		assertThat(onlyProblem("""
				defaults:
				  health_check_interval_ms: 200
				  timeout_ms: 300
				  window_seconds: 2
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: 1000
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(8, 17, "dependencies.catalog.timeout_ms",
				"'min_samples' (3) can never be reached while the dependency does not answer: a 2 s window then "
						+ "holds only 1 probe, each taking its 1000 ms timeout and the 200 ms interval, so a hanging "
						+ "dependency would never be judged failed; lower 'min_samples', widen 'window_seconds' or "
						+ "shorten 'timeout_ms'"));
	}

	@Test
	void aWindowThatIsReportedIsNotAlsoUsedToCallMinSamplesUnreachable() {
		// Were the rejected window replaced by the standard 30 s, min_samples would be reported as
		// unreachable in a window the author never wrote.
		assertThat(onlyProblem("""
				defaults:
				  window_seconds: 0
				  min_samples: 8
				dependencies:
				  catalog: { health_url: "http://catalog:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(2, 19, "defaults.window_seconds",
				"'window_seconds' must be between 1 and 86400, but it is 0"));
	}

	@Test
	void aSmallWindowIsJudgedWithTheShortTimeoutEveryDependencySetsNotTheStandardOne() {
		// With the standard 2 s timeout a 10 s window would hold 3 hanging probes, fewer than 5;
		// with the 200 ms each dependency sets it holds 8.
		DegradationManifest manifest = load("""
				defaults:
				  health_check_interval_ms: 1000
				  window_seconds: 10
				  min_samples: 5
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: 200
				  search:
				    health_url: http://search:8080/healthz
				    timeout_ms: 200
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog, search] }
				""");
		assertThat(manifest.dependencies()).extracting((dependency) -> dependency.healthCheck().timeout())
			.containsOnly(Duration.ofMillis(200));
	}

	@Test
	void aFailureThresholdInDefaultsBelowTheStandardRecoveryIsValidWhenEveryDependencySetsItsOwnRecovery() {
		DegradationManifest manifest = load("""
				defaults:
				  failure_threshold: 0.1
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    recovery_threshold: 0.05
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""");
		HealthCheck check = manifest.dependency("catalog").orElseThrow().healthCheck();
		assertThat(check.failureThreshold()).isEqualTo(0.1);
		assertThat(check.recoveryThreshold()).isEqualTo(0.05);
	}

	@Test
	void defaultsThatNoDependencyInheritsWholeAreNotJudgedOnTheirOwn() {
		assertThat(load("""
				defaults:
				  window_seconds: 2
				  min_samples: 10
				  failure_threshold: 0.1
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop }
				""").dependencies()).isEmpty();
	}

	@Test
	void aDependencyThatInheritsAnUnreachableCombinationWholeIsReportedOnceAtTheDefaults() {
		assertThat(onlyProblem("""
				defaults:
				  window_seconds: 10
				  min_samples: 4
				dependencies:
				  catalog: { health_url: "http://catalog:8080/healthz" }
				  search: { health_url: "http://search:8080/healthz" }
				  reviews:
				    health_url: http://reviews:8080/healthz
				    timeout_ms: 100
				    health_check_interval_ms: 1000
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog, search, reviews] }
				""")).isEqualTo(problem(3, 16, "defaults.min_samples",
				"'min_samples' (4) can never be reached while the dependency does not answer: a 10 s window then "
						+ "holds only 1 probe, each taking its 2000 ms timeout and the 5000 ms interval, so a hanging "
						+ "dependency would never be judged failed; lower 'min_samples', widen 'window_seconds' or "
						+ "shorten 'timeout_ms'"));
	}

	@Test
	void aDependencyThatSetsOneValueOfAnUnreachableCombinationIsReportedAtThatValueNotAtTheDefaults() {
		// The defaults alone are fine (a 30 s window holds 4 hanging probes); the dependency's
		// longer timeout is what makes its inherited min_samples unreachable.
		assertThat(onlyProblem("""
				defaults:
				  min_samples: 4
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: 10000
				  search: { health_url: "http://search:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog, search] }
				""")).isEqualTo(problem(6, 17, "dependencies.catalog.timeout_ms",
				"'min_samples' (4) can never be reached while the dependency does not answer: a 30 s window then "
						+ "holds only 2 probes, each taking its 10000 ms timeout and the 5000 ms interval, so a hanging "
						+ "dependency would never be judged failed; lower 'min_samples', widen 'window_seconds' or "
						+ "shorten 'timeout_ms'"));
	}

	@Test
	void aThresholdInheritedFromDefaultsThatCrossesTheDependencysOwnIsReportedAtTheDependency() {
		assertThat(onlyProblem("""
				defaults:
				  recovery_threshold: 0.3
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    failure_threshold: 0.25
				  search: { health_url: "http://search:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog, search] }
				""")).isEqualTo(problem(6, 24, "dependencies.catalog.failure_threshold",
				"'recovery_threshold' (0.3, the default) must be lower than 'failure_threshold' (0.25) so that a "
						+ "dependency cannot flap between failed and recovered on one probe"));
	}

	@Test
	void aDefaultThatIsReportedIsNotAlsoUsedToJudgeTheDependenciesThatInheritIt() {
		assertThat(onlyProblem("""
				defaults:
				  window_seconds: 0
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    min_samples: 8
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(2, 19, "defaults.window_seconds",
				"'window_seconds' must be between 1 and 86400, but it is 0"));
	}

	@Test
	void aMistypedDependencyKeySuggestsTheHealthCheckKey() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    min_sample: 2
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""").message()).startsWith("unknown key 'min_sample'; did you mean 'min_samples'?");
	}

}
