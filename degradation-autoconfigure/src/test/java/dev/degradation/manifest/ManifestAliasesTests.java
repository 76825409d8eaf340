package dev.degradation.manifest;

import java.time.Duration;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static dev.degradation.manifest.ManifestLoading.load;
import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static dev.degradation.manifest.ManifestLoading.problem;
import static dev.degradation.manifest.ManifestLoading.problems;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * YAML anchors and aliases: ordinary YAML, read as the value the anchor names, wherever the alias
 * stands. A problem in aliased content points at where it is written, with the YAML path where it
 * is used; the value as a whole stands at the alias. The limits on aliases are in
 * {@link ManifestParsingLimitsTests}.
 */
class ManifestAliasesTests {

	@Test
	void aStaticResponseWrittenOnceWithAnAnchorIsTheBodyOfEveryRouteThatAliasesIt() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: static
				        static_response: &empty { "items": [], "source": "degraded" }
				      - path: /api/suggestions
				        method: GET
				        fallback: static
				        static_response: *empty
				""");
		assertThat(manifest.routes()).extracting(Route::fallback)
			.containsOnly(new Fallback.Static("{\"items\":[],\"source\":\"degraded\"}"))
			.hasSize(2);
	}

	@Test
	void anAnchoredScalarIsReadWhereverItsAliasStands() {
		DegradationManifest manifest = load("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: &fast 250
				  search:
				    health_url: http://search:8080/healthz
				    timeout_ms: *fast
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: &get GET, fallback: drop, requires: [&catalog catalog] }
				      - { path: /api/b, method: *get, fallback: drop, requires: [*catalog, search] }
				""");
		assertThat(manifest.dependencies()).extracting((dependency) -> dependency.healthCheck().timeout())
			.containsExactly(Duration.ofMillis(250), Duration.ofMillis(250));
		assertThat(manifest.routes()).extracting(Route::toString).containsExactly("GET /api/a", "GET /api/b");
		assertThat(manifest.routes().get(1).requires()).containsExactly("catalog", "search");
	}

	@Test
	void anAliasedDependencyIsAnotherDependencyWithTheSameSettings() {
		DegradationManifest manifest = load("""
				dependencies:
				  catalog: &catalog
				    health_url: http://catalog:8080/healthz
				    timeout_ms: 500
				  catalog-replica: *catalog
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog-replica] }
				""");
		assertThat(manifest.dependencies()).extracting(Dependency::name).containsExactly("catalog", "catalog-replica");
		assertThat(manifest.dependency("catalog-replica").orElseThrow().healthCheck())
			.isEqualTo(manifest.dependency("catalog").orElseThrow().healthCheck());
		// Where the dependency is declared: the alias.
		assertThat(manifest.dependency("catalog-replica").orElseThrow().position()).isEqualTo(new Position(5, 3));
	}

	@Test
	void aProblemInAliasedContentPointsAtWhereItIsWrittenOnceForEveryPathThatUsesIt() {
		assertThat(problems("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - &suggestions { path: /api/suggestions, method: GET, fallback: statc }
				  enhanced:
				    priority: 2
				    routes:
				      - *suggestions
				""")).containsExactly(
				problem(5, 71, "tiers.optional.routes[0].fallback",
						"'statc' is not a fallback; use one of drop, stale, static, unavailable; did you mean 'static'?"),
				problem(5, 71, "tiers.enhanced.routes[0].fallback",
						"'statc' is not a fallback; use one of drop, stale, static, unavailable; did you mean 'static'?"));
	}

	@Test
	void aRouteAliasedIntoASecondTierIsReportedAtTheAliasAsTheSameRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - &suggestions { path: /api/suggestions, method: GET, fallback: drop }
				  enhanced:
				    priority: 2
				    routes:
				      - *suggestions
				""")).isEqualTo(problem(9, 9, "tiers.enhanced.routes[0]", "route GET /api/suggestions is already "
				+ "declared in tier 'optional' (line 5); a route may appear once"));
	}

	@Test
	void aValueOfTheWrongTypeThatAnAliasBringsIsReportedAtTheAlias() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: &url http://catalog:8080/healthz
				    timeout_ms: *url
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(4, 17, "dependencies.catalog.timeout_ms",
				"expected a number, but found the text 'http://catalog:8080/healthz'"));
	}

	@Test
	void anAliasWithoutItsAnchorIsReportedAtTheAliasAndNothingElseIsGuessed() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [*catalog] }
				""")).isEqualTo(problem(8, 79, "tiers.optional.routes[0].requires[0]", "the YAML alias '*catalog' "
				+ "names no anchor defined before it; write '&catalog' on a value above, outside the value that "
				+ "holds the alias"));
	}

	@Test
	void anAliasInsideTheValueItsAnchorNamesIsReportedAsWithoutItsAnchor() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: GET, fallback: static, static_response: &loop [*loop] }
				""")).isEqualTo(problem(5, 80, "tiers.optional.routes[0].static_response[0]", "the YAML alias "
				+ "'*loop' names no anchor defined before it; write '&loop' on a value above, outside the value "
				+ "that holds the alias"));
	}

	@Test
	void aLaterAnchorOfTheSameNameIsTheOneLaterAliasesName() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: GET, fallback: static, static_response: &body first }
				      - { path: /api/b, method: GET, fallback: static, static_response: *body }
				      - { path: /api/c, method: GET, fallback: static, static_response: &body second }
				      - { path: /api/d, method: GET, fallback: static, static_response: *body }
				""");
		assertThat(manifest.routes()).extracting((route) -> ((Fallback.Static) route.fallback()).body())
			.containsExactly("\"first\"", "\"first\"", "\"second\"", "\"second\"");
	}

	@Test
	void aBodySharedByFiveHundredRoutesIsWithinTheLimits() {
		StringBuilder yaml = new StringBuilder("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/r0, method: GET, fallback: static, static_response: &body { items: [], source: degraded } }
				""");
		IntStream.rangeClosed(1, 499)
			.forEach((i) -> yaml.append("      - { path: /api/r").append(i)
				.append(", method: GET, fallback: static, static_response: *body }\n"));
		assertThat(load(yaml.toString()).routes()).hasSize(500)
			.extracting(Route::fallback)
			.containsOnly(new Fallback.Static("{\"items\":[],\"source\":\"degraded\"}"));
	}

}
