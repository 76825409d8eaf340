package dev.degradation.manifest;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static dev.degradation.manifest.ManifestLoading.load;
import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dependency's call budget as the loader reads it: standard values from its timeout, and the
 * keys of {@code defaults} overridden by a dependency's own key by key, inside {@code breaker} too.
 */
class CallBudgetTests {

	@Test
	void aDependencyOverridesTheBreakerOfDefaultsKeyByKey() {
		DegradationManifest manifest = load("""
				defaults:
				  timeout_ms: 1000
				  breaker: { open_ms: 2000, half_open_calls: 5 }
				dependencies:
				  search:
				    base_url: http://search:8080
				    breaker: { half_open_calls: 1 }
				  payments:
				    base_url: http://payments:8080
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/search, method: GET, fallback: drop, requires: [search, payments] }
				""");
		BreakerPolicy search = manifest.dependency("search").orElseThrow().calls().breaker();
		assertThat(search.halfOpenCalls()).isEqualTo(1);
		assertThat(search.open()).isEqualTo(Duration.ofSeconds(2));
		BreakerPolicy payments = manifest.dependency("payments").orElseThrow().calls().breaker();
		assertThat(payments.halfOpenCalls()).isEqualTo(5);
		assertThat(payments.slowCallDuration()).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void withoutBreakerKeysAHalfOpenBreakerJudgesThreeTrials() {
		DegradationManifest manifest = load("""
				dependencies:
				  search: { base_url: http://search:8080 }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/search, method: GET, fallback: drop, requires: [search] }
				""");
		assertThat(manifest.dependency("search").orElseThrow().calls().breaker()).isEqualTo(BreakerPolicy.standard(Duration.ofSeconds(2)));
		assertThat(BreakerPolicy.standard(Duration.ofSeconds(2)).halfOpenCalls()).isEqualTo(3);
	}

	@Test
	void halfOpenCallsOutOfRangeIsAPositionedProblem() {
		ManifestProblem problem = onlyProblem(ManifestLoading.LOADER, """
				dependencies:
				  search:
				    base_url: http://search:8080
				    breaker: { half_open_calls: 0 }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/search, method: GET, fallback: drop, requires: [search] }
				""");
		assertThat(problem.path()).isEqualTo("dependencies.search.breaker.half_open_calls");
		assertThat(problem.position().line()).isEqualTo(4);
		assertThat(problem.message()).contains("1", "100");
	}

}
