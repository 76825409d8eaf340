package dev.degradation.manifest;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.degradation.manifest.ManifestLoading.load;
import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static dev.degradation.manifest.ManifestLoading.problem;
import static dev.degradation.manifest.ManifestLoading.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * One test per validation rule: each manifest breaks one rule, and the problem must point at the
 * right line, column and YAML path with a message that says what is wrong. A problem with a key
 * points at the key, a problem with a value at the value, and a missing key at the mapping that
 * lacks it.
 */
class ManifestValidationTests {

	private static final String NUMBER_HINT = "; write a plain decimal number without quotes, such as 2000 or 0.5";

	private static final String URL_HINT = "; write one such as http://recommendations:8080/healthz, or name a "
			+ "service by id, as lb://recommendations/healthz";

	// Types

	@Test
	void textWhereANumberIsExpectedIsReportedAtTheValue() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: fast
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requires: [catalog]
				""")).isEqualTo(problem(4, 17, "dependencies.catalog.timeout_ms",
				"expected a number, but found the text 'fast'"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"500\"", "0x1F", "0o17", "1_000", ".5", "+7", ".inf" })
	void numbersThatYamlReadsAsTextAreReportedWithHowToWriteThem(String timeout) {
		String text = timeout.replace("\"", "");
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""".formatted(timeout))).isEqualTo(problem(4, 17, "dependencies.catalog.timeout_ms",
				"expected a number, but found the text '" + text + "'" + NUMBER_HINT));
	}

	@ParameterizedTest
	@ValueSource(strings = { "~", "null", "" })
	void anEmptyValueWhereANumberIsExpectedIsReportedAndNeverTakenAsTheDefault(String empty) {
		assertThat(onlyProblem("""
				defaults:
				  hysteresis_seconds: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""".formatted(empty))).isEqualTo(problem(2, empty.isEmpty() ? 22 : 23, "defaults.hysteresis_seconds",
				"expected a number, but found nothing"));
	}

	@Test
	void aListWhereAMappingIsExpectedIsReportedAtTheList() {
		assertThat(onlyProblem("""
				defaults: [5000, 0.4]
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(1, 11, "defaults", "'defaults' must be a mapping, but it is a list"));
	}

	@Test
	void aRouteThatIsNotAMappingIsReportedAtTheItem() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - /api/recommendations
				""")).isEqualTo(problem(5, 9, "tiers.optional.routes[0]",
				"a route must be a mapping with 'path', 'method' and 'fallback', "
						+ "but it is the text '/api/recommendations'"));
	}

	@Test
	void aNumberWhereTextIsExpectedIsReportedAtTheValue() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: 8080
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requires: [catalog]
				""")).isEqualTo(problem(3, 17, "dependencies.catalog.health_url",
				"expected a text value, but found the number 8080; put it in quotes if it is meant as text"));
	}

	@Test
	void aBooleanWhereTextIsExpectedIsReportedAtTheValue() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: true
				        fallback: drop
				""")).isEqualTo(problem(6, 17, "tiers.optional.routes[0].method",
				"expected a text value, but found the boolean true; put it in quotes if it is meant as text"));
	}

	@Test
	void anEmptyValueWhereTextIsExpectedIsReportedRightAfterItsKey() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method:
				        fallback: drop
				""")).isEqualTo(problem(6, 16, "tiers.optional.routes[0].method",
				"expected a text value, but found nothing"));
	}

	// Ranges

	@ParameterizedTest
	@ValueSource(strings = { "0", "-0.1", "1.5" })
	void failureThresholdMustBeAboveZeroAndAtMostOne(String threshold) {
		assertThat(onlyProblem("""
				defaults:
				  failure_threshold: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""".formatted(threshold))).isEqualTo(problem(2, 22, "defaults.failure_threshold",
				"'failure_threshold' is an error rate and must be above 0 and at most 1, but it is " + threshold));
	}

	@ParameterizedTest
	@ValueSource(strings = { "-0.1", "1", "1.5" })
	void recoveryThresholdMustBeAtLeastZeroAndBelowOne(String threshold) {
		assertThat(onlyProblem("""
				defaults:
				  failure_threshold: 1
				  recovery_threshold: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""".formatted(threshold))).isEqualTo(problem(3, 23, "defaults.recovery_threshold",
				"'recovery_threshold' is an error rate and must be at least 0 and below 1, but it is " + threshold));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0.4", "0.5" })
	void recoveryThresholdMustBeLowerThanFailureThreshold(String recovery) {
		assertThat(onlyProblem("""
				defaults:
				  failure_threshold: 0.4
				  recovery_threshold: %s
				dependencies:
				  catalog: { health_url: "http://catalog:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""".formatted(recovery))).isEqualTo(problem(3, 23, "defaults.recovery_threshold", "'recovery_threshold' ("
				+ recovery + ") must be lower than 'failure_threshold' (0.4) so that a dependency cannot flap "
				+ "between failed and recovered on one probe"));
	}

	@Test
	void aFailureThresholdAtOrBelowTheDefaultRecoveryThresholdIsReportedAtTheFailureThreshold() {
		assertThat(onlyProblem("""
				defaults:
				  failure_threshold: 0.1
				dependencies:
				  catalog: { health_url: "http://catalog:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(2, 22, "defaults.failure_threshold", "'recovery_threshold' (0.15, the default) "
				+ "must be lower than 'failure_threshold' (0.1) so that a dependency cannot flap "
				+ "between failed and recovered on one probe"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "-1000" })
	void healthCheckIntervalMustBePositive(String interval) {
		assertThat(onlyProblem("""
				defaults:
				  health_check_interval_ms: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""".formatted(interval))).isEqualTo(problem(2, 29, "defaults.health_check_interval_ms",
				"'health_check_interval_ms' must be between 1 and 2147483647, but it is " + interval));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "-1", "99999999999" })
	void timeoutMustBePositiveAndFitAnInt(String timeout) {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""".formatted(timeout))).isEqualTo(problem(4, 17, "dependencies.catalog.timeout_ms",
				"'timeout_ms' must be between 1 and 2147483647, but it is " + timeout));
	}

	@Test
	void hysteresisMustNotBeNegative() {
		assertThat(onlyProblem("""
				defaults:
				  hysteresis_seconds: -1
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(2, 23, "defaults.hysteresis_seconds",
				"'hysteresis_seconds' must be between 0 and 2147483647, but it is -1"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "-1" })
	void priorityMustBeAtLeastOne(String priority) {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: %s
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""".formatted(priority))).isEqualTo(problem(3, 15, "tiers.optional.priority",
				"'priority' must be between 1 and 1000, but it is " + priority));
	}

	@Test
	void integerKeysNeedWholeNumbers() {
		assertThat(problems("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: 2.5
				tiers:
				  optional:
				    priority: 1.5
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).containsExactly(
				problem(4, 17, "dependencies.catalog.timeout_ms", "'timeout_ms' must be a whole number, but it is 2.5"),
				problem(7, 15, "tiers.optional.priority", "'priority' must be a whole number, but it is 1.5"));
	}

	// References

	@Test
	void requiresNamingAnUndeclaredDependencyIsReportedAtTheNameWithTheNearestDeclaredOne() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requires: [catalgo]
				""")).isEqualTo(problem(11, 20, "tiers.optional.routes[0].requires[0]",
				"'catalgo' is not a declared dependency; declared: catalog; did you mean 'catalog'?"));
	}

	@Test
	void requiresNamingAnUndeclaredDependencyWithNoNearMissListsTheDeclaredOnes() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				  reviews:
				    health_url: http://reviews:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requires: [catalog, payments]
				""")).isEqualTo(problem(13, 29, "tiers.optional.routes[0].requires[1]",
				"'payments' is not a declared dependency; declared: catalog, reviews"));
	}

	@Test
	void requiresWithoutAnyDeclaredDependencySaysWhereToDeclareIt() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requires: [catalog]
				""")).isEqualTo(problem(8, 20, "tiers.optional.routes[0].requires[0]",
				"'catalog' is not a declared dependency; declare it under 'dependencies'"));
	}

	@Test
	void requiringADependencyThatHasAProblemOfItsOwnReportsOnlyThatProblem() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    timeout_ms: 0
				    health_url: http://catalog:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(3, 17, "dependencies.catalog.timeout_ms",
				"'timeout_ms' must be between 1 and 2147483647, but it is 0"));
	}

	@Test
	void aDependencyRequiredTwiceByOneRouteIsReportedAtTheSecondMention() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requires: [catalog, catalog]
				""")).isEqualTo(problem(11, 29, "tiers.optional.routes[0].requires[1]", "'catalog' is listed twice"));
	}

	@Test
	void requiresMustBeAList() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requires: catalog
				""")).isEqualTo(problem(11, 19, "tiers.optional.routes[0].requires",
				"'requires' must be a list of dependency names, such as [recommendations-api], "
						+ "but it is the text 'catalog'"));
	}

	// Fallbacks

	@Test
	void aStaticFallbackWithoutStaticResponseIsReportedAtTheRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: static
				""")).isEqualTo(problem(5, 9, "tiers.optional.routes[0].static_response",
				"a 'static' fallback needs 'static_response': the JSON body to answer with, "
						+ "such as { \"items\": [], \"source\": \"degraded\" }"));
	}

	@Test
	void aStaticFallbackWithAnEmptyStaticResponseIsReportedAtTheValue() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: static
				        static_response: ~
				""")).isEqualTo(problem(8, 26, "tiers.optional.routes[0].static_response",
				"a 'static' fallback needs 'static_response': the JSON body to answer with, "
						+ "such as { \"items\": [], \"source\": \"degraded\" }"));
	}

	@Test
	void aDropFallbackWithAStaticResponseIsReportedAtTheStaticResponseKey() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        static_response: { "items": [] }
				""")).isEqualTo(problem(8, 9, "tiers.optional.routes[0].static_response",
				"a 'drop' fallback answers 204 with no body, so 'static_response' would never be sent; "
						+ "remove it or use 'fallback: static'"));
	}

	@Test
	void aMistypedFallbackKindIsReportedAtTheValueWithTheNearestKind() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: dorp
				""")).isEqualTo(problem(7, 19, "tiers.optional.routes[0].fallback",
				"'dorp' is not a fallback; use one of drop, stale, static, unavailable; did you mean 'drop'?"));
	}

	@Test
	void anUnknownFallbackKindIsReportedAtTheValueWithTheKnownKinds() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: redirect
				""")).isEqualTo(problem(7, 19, "tiers.optional.routes[0].fallback",
				"'redirect' is not a fallback; use one of drop, stale, static, unavailable"));
	}

	// Methods and paths

	@ParameterizedTest
	@ValueSource(strings = { "get", "Get", "GET", "gEt" })
	void aMethodIsReadInAnyCaseAsTheSeedFormatReadsIt(String method) {
		assertThat(load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: %s, fallback: drop }
				""".formatted(method)).routes()).extracting(Route::method).containsExactly("GET");
	}

	@Test
	void oneMethodWrittenInTwoCasesIsOneRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				      - { path: /api/recommendations, method: get, fallback: drop }
				""")).isEqualTo(problem(6, 9, "tiers.optional.routes[1]", "route GET /api/recommendations is already "
				+ "declared in tier 'optional' (line 5); a route may appear once"));
	}

	@Test
	void aMistypedMethodInLowerCaseIsReportedAsWrittenWithTheNearestMethod() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: gett, fallback: drop }
				""")).isEqualTo(problem(5, 47, "tiers.optional.routes[0].method",
				"'gett' is not an HTTP method this starter can degrade; use one of DELETE, GET, HEAD, OPTIONS, PATCH, "
						+ "POST, PUT; did you mean 'GET'?"));
	}

	@Test
	void anUnknownMethodIsReportedWithTheMethodsThatCanBeDegraded() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: TRACE
				        fallback: drop
				""")).isEqualTo(problem(6, 17, "tiers.optional.routes[0].method",
				"'TRACE' is not an HTTP method this starter can degrade; use one of DELETE, GET, HEAD, OPTIONS, PATCH, "
						+ "POST, PUT"));
	}

	@Test
	void aPathPatternWithAnUnclosedVariableIsReportedAtTheValue() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/{id
				        method: GET
				        fallback: drop
				""")).isEqualTo(problem(5, 15, "tiers.optional.routes[0].path", "'/api/{id' is not a valid path pattern: "
				+ "Expected close capture character after variable name } (at character 9)"));
	}

	@Test
	void aPathPatternWithDoubleWildcardInTheMiddleIsReportedAtTheValue() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/**/reviews
				        method: GET
				        fallback: drop
				""")).isEqualTo(problem(5, 15, "tiers.optional.routes[0].path",
				"'/api/**/reviews' is not a valid path pattern: {*...} or ** pattern elements should be placed at "
						+ "the start or end of the pattern (at character 6)"));
	}

	@Test
	void aPathMustStartWithASlash() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: api/recommendations
				        method: GET
				        fallback: drop
				""")).isEqualTo(problem(5, 15, "tiers.optional.routes[0].path",
				"'api/recommendations' must start with '/'"));
	}

	// Uniqueness

	@Test
	void aRouteDeclaredTwiceInATierIsReportedAtTheSecondRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				""")).isEqualTo(problem(8, 9, "tiers.optional.routes[1]",
				"route GET /api/recommendations is already declared in tier 'optional' (line 5); "
						+ "a route may appear once"));
	}

	@Test
	void aRouteDeclaredInTwoTiersIsReportedAtTheSecondRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				  enhanced:
				    priority: 2
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(9, 9, "tiers.enhanced.routes[0]",
				"route GET /api/recommendations is already declared in tier 'optional' (line 5); "
						+ "a route may appear once"));
	}

	@Test
	void routesWhosePatternsDifferOnlyInVariableNamesAreTheSameRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: "/api/products/{id}/reviews", method: GET, fallback: drop }
				      - { path: "/api/products/{productId}/reviews", method: GET, fallback: drop }
				""")).isEqualTo(problem(6, 9, "tiers.optional.routes[1]",
				"route GET /api/products/{productId}/reviews matches the same requests as "
						+ "GET /api/products/{id}/reviews, declared in tier 'optional' (line 5); a route may appear once"));
	}

	@Test
	void theSamePatternWithDifferentMethodsOrRegularExpressionsAreDifferentRoutes() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: "/api/products/{id}", method: GET, fallback: drop }
				      - { path: "/api/products/{id}", method: DELETE, fallback: drop }
				      - { path: "/api/orders/{id:[0-9]{2}}", method: GET, fallback: drop }
				      - { path: "/api/orders/{id:[0-9]{3}}", method: GET, fallback: drop }
				""");
		assertThat(manifest.routes()).hasSize(4);
	}

	@Test
	void twoTiersWithTheSamePriorityAreReportedAtTheSecondPriority() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				  enhanced:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop }
				""")).isEqualTo(problem(7, 15, "tiers.enhanced.priority", "priority 1 is already used by tier 'optional' "
				+ "(line 2); give each tier its own priority so the shed order is unambiguous"));
	}

	// The Actuator base path

	@ParameterizedTest
	@ValueSource(strings = { "/actuator", "/actuator/health", "/actuator/**" })
	void aRouteAtOrUnderTheActuatorBasePathIsReportedAtThePath(String path) {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: %s
				        method: GET
				        fallback: drop
				""".formatted(path))).isEqualTo(problem(5, 15, "tiers.optional.routes[0].path", "'" + path
				+ "' is under the Actuator base path '/actuator'; the degradation controls must stay reachable, "
				+ "so no route may be shed there"));
	}

	@Test
	void aRouteThatOnlyStartsWithTheSameLettersAsTheBasePathIsNotUnderIt() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /actuators/health, method: GET, fallback: drop }
				      - { path: /actuator-docs, method: GET, fallback: drop }
				""");
		assertThat(manifest.routes()).hasSize(2);
	}

	@Test
	void aBasePathWithATrailingSlashReservesTheSamePaths() {
		ManifestLoader loader = ManifestLoader.standard().withReservedBasePath("/manage/");
		assertThat(onlyProblem(loader, """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /manage/info, method: GET, fallback: drop }
				""")).isEqualTo(problem(5, 17, "tiers.optional.routes[0].path", "'/manage/info' is under the Actuator "
				+ "base path '/manage'; the degradation controls must stay reachable, so no route may be shed there"));
	}

	@Test
	void withoutAReservedBasePathActuatorLikePathsAreOrdinaryRoutes() {
		DegradationManifest manifest = ManifestLoader.standard()
			.load("manifest.yaml", """
					tiers:
					  optional:
					    priority: 1
					    routes:
					      - { path: /actuator/health, method: GET, fallback: drop }
					""".getBytes(StandardCharsets.UTF_8));
		assertThat(manifest.routes()).extracting(Route::path).containsExactly("/actuator/health");
	}

	// Health URLs

	@ParameterizedTest
	@ValueSource(strings = { "/healthz", "catalog:8080/healthz", "ftp://catalog/healthz", "http:///healthz",
			"mailto:ops@example.com" })
	void aHealthUrlMustBeAnAbsoluteHttpUrl(String url) {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""".formatted(url))).isEqualTo(problem(3, 17, "dependencies.catalog.health_url",
				"'" + url + "' is not an absolute http or https URL" + URL_HINT));
	}

	@Test
	void aHealthUrlThatIsNotAUrlAtAllSaysWhereItBreaks() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://cat alog/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(3, 17, "dependencies.catalog.health_url",
				"'http://cat alog/healthz' is not an absolute http or https URL (illegal character in authority)"
						+ URL_HINT));
	}

	@ParameterizedTest
	@ValueSource(strings = { "lb://catalog", "lb://catalog/healthz", "LB://Catalog-Service/actuator/health" })
	void aHealthUrlMayNameAServiceById(String url) {
		DegradationManifest manifest = ManifestLoader.standard().load("manifest.yaml", """
				dependencies:
				  catalog:
				    health_url: %s
				    base_url: lb://catalog
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""".formatted(url).getBytes(StandardCharsets.UTF_8));
		assertThat(manifest.dependencies().get(0).healthUrl()).hasToString(url);
		assertThat(ServiceUrl.serviceId(manifest.dependencies().get(0).baseUrl())).isEqualTo("catalog");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = {
			"lb://catalog:8080/healthz | has a port: the load balancer or discovery chooses each instance's address",
			"lb://ops@catalog/healthz | has user information, which a service id never carries",
			"lb://catalog/healthz?deep=true | has a query or a fragment",
			"lb://cat_alog/healthz | names no valid service id (letters, digits, '-' and '.')" })
	void aServiceUrlNamesOnlyTheServiceAndAPath(String url, String reason) {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""".formatted(url))).isEqualTo(problem(3, 17, "dependencies.catalog.health_url",
				"'" + url + "' names a service by id, but it " + reason
						+ "; write one such as lb://recommendations/healthz"));
	}

	// Missing keys

	@Test
	void aManifestWithoutTiersIsReportedAtTheStartOfTheManifest() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				""")).isEqualTo(problem(1, 1, "tiers",
				"missing 'tiers': the manifest must declare at least one tier of degradable routes"));
	}

	@Test
	void aDependencyWithoutHealthUrlIsReportedAtTheDependency() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    timeout_ms: 1000
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(3, 5, "dependencies.catalog.health_url",
				"missing 'health_url': the absolute http(s) URL that answers 2xx when the dependency is healthy (or "
						+ "write 'health_indicator' to judge it by a Spring Boot health indicator, or 'base_url' to judge "
						+ "it by the application's calls alone)"));
	}

	@Test
	void aRouteWithoutPathIsReportedAtTheRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - method: GET
				        fallback: drop
				""")).isEqualTo(problem(5, 9, "tiers.optional.routes[0].path",
				"missing 'path': the Spring path pattern of the route, such as /api/products/{id}"));
	}

	@Test
	void aRouteWithoutMethodIsReportedAtTheRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        fallback: drop
				""")).isEqualTo(problem(5, 9, "tiers.optional.routes[0].method",
				"missing 'method': one of DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT"));
	}

	@Test
	void aRouteWithoutFallbackIsReportedAtTheRoute() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				""")).isEqualTo(problem(5, 9, "tiers.optional.routes[0].fallback",
				"missing 'fallback': 'drop' (204, nothing done), 'static' ('static_response' as the body, 200 unless 'status' says otherwise), 'unavailable' (503 with a bounded Retry-After) or 'stale' (the last good answer, at most 'max_stale_seconds' old)"));
	}

	@Test
	void aTierWithoutPriorityIsReportedAtTheTier() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(3, 5, "tiers.optional.priority",
				"missing 'priority': the shed order of the tier, 1 or more; lower priorities are shed first"));
	}

	@Test
	void aTierWithoutRoutesIsReportedAtTheTier() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				""")).isEqualTo(problem(3, 5, "tiers.optional.routes",
				"missing 'routes': a tier needs at least one route"));
	}

	@Test
	void emptyTiersAreReportedAtTheEmptyMapping() {
		assertThat(onlyProblem("""
				tiers: {}
				""")).isEqualTo(problem(1, 8, "tiers", "'tiers' is empty; declare at least one tier"));
	}

	@Test
	void emptyRoutesAreReportedAtTheEmptyList() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes: []
				""")).isEqualTo(problem(4, 13, "tiers.optional.routes",
				"'routes' is empty; a tier needs at least one route"));
	}

	// What a failed dependency sheds

	@Test
	void aFailedDependencyShedsItsRoutesUnlessTheDefaultsSayTiers() {
		assertThat(load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""").defaults().failedDependencySheds()).isEqualTo(ShedScope.ROUTES);
		assertThat(load("""
				defaults:
				  failed_dependency_sheds: tiers
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""").defaults().failedDependencySheds()).isEqualTo(ShedScope.TIERS);
	}

	@Test
	void anUnknownShedScopeIsReportedAtTheValueWithTheAllowedOnesAndTheNearest() {
		assertThat(onlyProblem("""
				defaults:
				  failed_dependency_sheds: tier
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(2, 28, "defaults.failed_dependency_sheds",
				"'tier' is not a value of 'failed_dependency_sheds'; use one of routes, tiers; did you mean 'tiers'?"));
	}

	@Test
	void aShedScopeThatResemblesNoneIsReportedWithTheAllowedOnes() {
		assertThat(onlyProblem("""
				defaults:
				  failed_dependency_sheds: everything
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(2, 28, "defaults.failed_dependency_sheds",
				"'everything' is not a value of 'failed_dependency_sheds'; use one of routes, tiers"));
	}

	@Test
	void aShedScopeIsNoSettingOfOneDependency() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    failed_dependency_sheds: tiers
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(4, 5, "dependencies.catalog.failed_dependency_sheds",
				"unknown key 'failed_dependency_sheds' (known keys: base_url, breaker, call_timeout_ms, "
						+ "failure_threshold, health_check_interval_ms, health_indicator, health_url, min_samples, "
						+ "recovery_threshold, retry, timeout_ms, window_seconds)"));
	}

	// Unknown keys

	@Test
	void aMistypedDefaultsKeyIsReportedAtTheKeyWithTheKnownKeyItResembles() {
		assertThat(onlyProblem("""
				defaults:
				  failure_treshold: 0.3
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(2, 3, "defaults.failure_treshold",
				"unknown key 'failure_treshold'; did you mean 'failure_threshold'? (known keys: breaker, call_timeout_ms, "
						+ "failed_dependency_sheds, failure_threshold, health_check_interval_ms, hysteresis_seconds, "
						+ "min_samples, "
						+ "recovery_threshold, retry, timeout_ms, window_seconds)"));
	}

	@Test
	void aMistypedRouteKeyIsReportedAtTheKeyWithTheKnownKeyItResembles() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requries: [catalog]
				""")).isEqualTo(problem(11, 9, "tiers.optional.routes[0].requries",
				"unknown key 'requries'; did you mean 'requires'? (known keys: content_type, fallback, headers, "
						+ "max_stale_seconds, method, name, path, requires, retry_after_seconds, static_response, status, "
						+ "vary_by)"));
	}

	@Test
	void anUnknownKeyThatResemblesNothingIsReportedWithTheKnownKeys() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    weight: 3
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(4, 5, "tiers.optional.weight",
				"unknown key 'weight' (known keys: priority, routes)"));
	}

	// Names

	@Test
	void anInvalidDependencyNameIsReportedAtTheName() {
		assertThat(onlyProblem("""
				dependencies:
				  catalog service:
				    health_url: http://catalog:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(2, 3, "dependencies.catalog service", "'catalog service' is not a valid "
				+ "dependency name: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64"));
	}

	@Test
	void anInvalidTierNameIsReportedAtTheName() {
		assertThat(onlyProblem("""
				tiers:
				  _optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(2, 3, "tiers._optional", "'_optional' is not a valid tier name: use letters, "
				+ "digits, '.', '_' and '-', starting with a letter or digit, at most 64"));
	}

	// All problems together

	@Test
	void everyProblemIsReportedInFileOrderAndTheMessageListsThemWithSourceLineAndColumn() {
		InvalidManifestException failure = ManifestLoading.failure(ManifestLoading.LOADER, """
				defaults:
				  failure_treshold: 0.4
				dependencies:
				  catalog:
				    health_url: catalog/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: TRACE
				        fallback: static
				        requires: [catalgo]
				""".getBytes(StandardCharsets.UTF_8));
		assertThat(failure.getSource()).isEqualTo("manifest.yaml");
		List<ManifestProblem> problems = failure.getProblems();
		assertThat(problems).extracting(ManifestProblem::position, ManifestProblem::path)
			.containsExactly(tuple(new Position(2, 3), "defaults.failure_treshold"),
					tuple(new Position(5, 17), "dependencies.catalog.health_url"),
					tuple(new Position(10, 9), "tiers.optional.routes[0].static_response"),
					tuple(new Position(11, 17), "tiers.optional.routes[0].method"),
					tuple(new Position(13, 20), "tiers.optional.routes[0].requires[0]"));
		assertThat(failure.getMessage().lines()).satisfiesExactly(
				(line) -> assertThat(line).isEqualTo("Invalid degradation manifest manifest.yaml (5 problems):"),
				(line) -> assertThat(line).startsWith("  - manifest.yaml:2:3: defaults.failure_treshold: unknown key"),
				(line) -> assertThat(line)
					.startsWith("  - manifest.yaml:5:17: dependencies.catalog.health_url: 'catalog/healthz' is not"),
				(line) -> assertThat(line).startsWith(
						"  - manifest.yaml:10:9: tiers.optional.routes[0].static_response: a 'static' fallback needs"),
				(line) -> assertThat(line)
					.startsWith("  - manifest.yaml:11:17: tiers.optional.routes[0].method: 'TRACE' is not an HTTP method"),
				(line) -> assertThat(line).startsWith(
						"  - manifest.yaml:13:20: tiers.optional.routes[0].requires[0]: 'catalgo' is not a declared"));
	}

}
