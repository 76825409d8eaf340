package dev.degradation.manifest;

import org.junit.jupiter.api.Test;

import static dev.degradation.manifest.ManifestLoading.load;
import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static dev.degradation.manifest.ManifestLoading.problem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code defaults.failed_dependency_sheds}: what a failed dependency sheds.
 */
class FailedDependencyShedsTests {

	private static final String TIERS = """
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /a, method: GET, fallback: drop }
			""";

	@Test
	void byDefaultAFailedDependencyShedsTheRoutesThatRequireIt() {
		assertThat(load(TIERS).defaults().failedDependencySheds()).isEqualTo(ShedScope.ROUTES);
		assertThat(load("defaults: { hysteresis_seconds: 5 }\n" + TIERS).defaults().failedDependencySheds())
			.isEqualTo(ShedScope.ROUTES);
	}

	@Test
	void eitherValueIsRead() {
		assertThat(load("defaults: { failed_dependency_sheds: tiers }\n" + TIERS).defaults().failedDependencySheds())
			.isEqualTo(ShedScope.TIERS);
		assertThat(load("defaults: { failed_dependency_sheds: routes }\n" + TIERS).defaults().failedDependencySheds())
			.isEqualTo(ShedScope.ROUTES);
	}

	@Test
	void anotherValueIsRefusedWithTheAllowedOnesAndASuggestion() {
		assertThat(onlyProblem("defaults: { failed_dependency_sheds: tier }\n" + TIERS))
			.isEqualTo(problem(1, 38, "defaults.failed_dependency_sheds", "'tier' is not what a failed dependency "
					+ "can shed; use 'routes' (only the routes that require it) or 'tiers' (its tier and every tier "
					+ "below it); did you mean 'tiers'?"));
	}

	@Test
	void itIsNotADependencyKey() {
		assertThat(onlyProblem("""
				dependencies:
				  a: { health_url: "http://a:8080/healthz", failed_dependency_sheds: tiers }
				""" + TIERS).message()).startsWith("unknown key 'failed_dependency_sheds'");
	}

}
