package dev.degradation.manifest;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static dev.degradation.manifest.ManifestLoading.SOURCE;
import static dev.degradation.manifest.ManifestLoading.load;
import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static dev.degradation.manifest.ManifestLoading.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Valid manifests: what they load into, the defaults, placeholders and static responses.
 */
class ManifestLoaderTests {

	private static final String SEED = """
			defaults:
			  health_check_interval_ms: 5000
			  failure_threshold: 0.4
			  recovery_threshold: 0.15
			  hysteresis_seconds: 90
			dependencies:
			  recommendations-api:
			    health_url: http://recommendations:8080/healthz
			    timeout_ms: 2000
			  analytics-collector:
			    health_url: http://analytics:8080/healthz
			    timeout_ms: 1000
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - path: /api/analytics/track
			        method: POST
			        fallback: drop
			        requires: [analytics-collector]
			  enhanced:
			    priority: 2
			    routes:
			      - path: /api/recommendations
			        method: GET
			        fallback: static
			        static_response: { "items": [], "source": "degraded" }
			        requires: [recommendations-api]
			""";

	/**
	 * Resolves {@code ${key}} from a map and throws {@link IllegalArgumentException} for an
	 * unknown key, like {@code Environment.resolveRequiredPlaceholders}.
	 */
	private static final UnaryOperator<String> PLACEHOLDERS = placeholders(
			Map.of("catalog.host", "catalog.internal", "catalog.timeout", "750", "zero", "0", "word", "fast"));

	private final ManifestLoader loader = ManifestLoading.LOADER.withPlaceholderResolver(PLACEHOLDERS);

	@Test
	void seedManifestLoadsIntoTheExpectedRecords() {
		DegradationManifest manifest = load(SEED);
		assertThat(manifest.source()).isEqualTo(SOURCE);
		HealthCheck seedDefaults = new HealthCheck(Duration.ofSeconds(5), Duration.ofMillis(2000),
				Duration.ofSeconds(30), 3, 0.4, 0.15);
		assertThat(manifest.defaults()).isEqualTo(new ManifestDefaults(seedDefaults, Duration.ofSeconds(90), ShedScope.ROUTES));
		assertThat(manifest.dependencies()).containsExactly(
				new Dependency("recommendations-api", URI.create("http://recommendations:8080/healthz"),
						seedDefaults, new Position(7, 3)),
				new Dependency("analytics-collector", URI.create("http://analytics:8080/healthz"),
						new HealthCheck(Duration.ofSeconds(5), Duration.ofMillis(1000), Duration.ofSeconds(30), 3, 0.4,
								0.15),
						new Position(10, 3)));
		assertThat(manifest.tiers()).extracting(Tier::name, Tier::priority, Tier::position)
			.containsExactly(tuple("best-effort", 1, new Position(14, 3)),
					tuple("enhanced", 2, new Position(21, 3)));
		assertThat(manifest.tier("best-effort").orElseThrow().routes()).containsExactly(new Route("best-effort", "POST",
				"/api/analytics/track", new Fallback.Drop(), List.of("analytics-collector"), new Position(17, 9)));
		assertThat(manifest.tier("enhanced").orElseThrow().routes()).containsExactly(new Route("enhanced", "GET",
				"/api/recommendations", new Fallback.Static("{\"items\":[],\"source\":\"degraded\"}"),
				List.of("recommendations-api"), new Position(24, 9)));
		assertThat(manifest.maxPriority()).isEqualTo(2);
	}

	@Test
	void tiersAreSortedByPriorityWhateverTheOrderOfTheFile() {
		DegradationManifest manifest = load("""
				tiers:
				  enhanced:
				    priority: 20
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				  best-effort:
				    priority: 1
				    routes:
				      - { path: /api/analytics/track, method: POST, fallback: drop }
				  optional:
				    priority: 5
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop }
				""");
		assertThat(manifest.tiers()).extracting(Tier::name).containsExactly("best-effort", "optional", "enhanced");
		assertThat(manifest.routes()).extracting(Route::toString)
			.containsExactly("POST /api/analytics/track", "GET /api/reviews", "GET /api/recommendations");
	}

	@Test
	void withoutDefaultsSectionTheStandardDefaultsApply() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				""");
		assertThat(manifest.defaults()).isEqualTo(ManifestDefaults.STANDARD);
		assertThat(manifest.dependencies()).isEmpty();
		assertThat(manifest.routes()).singleElement().satisfies((route) -> assertThat(route.requires()).isEmpty());
	}

	@Test
	void keysLeftOutOfTheDefaultsSectionKeepTheirStandardValue() {
		DegradationManifest manifest = load("""
				defaults:
				  failure_threshold: 0.5
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""");
		HealthCheck standard = HealthCheck.STANDARD;
		assertThat(manifest.defaults()).isEqualTo(new ManifestDefaults(new HealthCheck(standard.interval(),
				standard.timeout(), standard.window(), standard.minSamples(), 0.5, standard.recoveryThreshold()),
				ManifestDefaults.STANDARD.hysteresis(), ShedScope.ROUTES));
	}

	@Test
	void emptySectionsAndAnEmptyRequiresMeanNothingDeclared() {
		DegradationManifest manifest = load("""
				defaults:
				dependencies: ~
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: drop
				        requires:
				""");
		assertThat(manifest.defaults()).isEqualTo(ManifestDefaults.STANDARD);
		assertThat(manifest.dependencies()).isEmpty();
		assertThat(manifest.routes()).singleElement().satisfies((route) -> assertThat(route.requires()).isEmpty());
	}

	@Test
	void aDependencyWithoutTimeoutUsesTheDefaultTimeout() {
		DegradationManifest manifest = load("""
				dependencies:
				  catalog:
				    health_url: https://catalog.example.com/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""");
		assertThat(manifest.dependency("catalog")).hasValueSatisfying((dependency) -> {
			assertThat(dependency.healthCheck()).isEqualTo(HealthCheck.STANDARD);
			assertThat(dependency.healthUrl()).isEqualTo(URI.create("https://catalog.example.com/healthz"));
		});
	}

	@Test
	void numbersInExponentNotationAndWholeDecimalsAreAccepted() {
		DegradationManifest manifest = load("""
				defaults:
				  health_check_interval_ms: 1e4
				  window_seconds: 4e1
				  failure_threshold: 1
				  recovery_threshold: 0
				  hysteresis_seconds: 0
				tiers:
				  optional:
				    priority: 2.0
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""");
		HealthCheck standard = HealthCheck.STANDARD;
		assertThat(manifest.defaults()).isEqualTo(new ManifestDefaults(new HealthCheck(Duration.ofSeconds(10),
				standard.timeout(), Duration.ofSeconds(40), standard.minSamples(), 1, 0), Duration.ZERO, ShedScope.ROUTES));
		assertThat(manifest.maxPriority()).isEqualTo(2);
	}

	@Test
	void routesKeepTheirPatternMethodAndOrderWithinATier() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: "/api/products/{id}/reviews", method: GET, fallback: drop }
				      - path: /api/products/{id}/reviews
				        method: POST
				        fallback: drop
				      - { path: "/api/search/**", method: GET, fallback: drop }
				      - { path: "/api/{*rest}", method: DELETE, fallback: drop }
				""");
		assertThat(manifest.routes()).extracting(Route::method, Route::path)
			.containsExactly(tuple("GET", "/api/products/{id}/reviews"),
					tuple("POST", "/api/products/{id}/reviews"),
					tuple("GET", "/api/search/**"),
					tuple("DELETE", "/api/{*rest}"));
	}

	@Test
	void staticResponseIsSerializedToCompactJsonExactlyAsWritten() {
		DegradationManifest manifest = load(this.loader, """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: static
				        static_response:
				          items: []
				          source: "degraded"
				          count: 0
				          ratio: 0.25
				          big: 12345678901234567890
				          stale: true
				          next: null
				          empty: ""
				          note: "ünïcödé \\"quoted\\" ${catalog.host}"
				          nested: { "a": [1, "two", { "b": false }] }
				""");
		assertThat(manifest.routes()).singleElement()
			.satisfies((route) -> assertThat(route.fallback()).isEqualTo(new Fallback.Static(
					"{\"items\":[],\"source\":\"degraded\",\"count\":0,\"ratio\":0.25,\"big\":12345678901234567890,"
							+ "\"stale\":true,\"next\":null,\"empty\":\"\",\"note\":\"ünïcödé \\\"quoted\\\" ${catalog.host}\","
							+ "\"nested\":{\"a\":[1,\"two\",{\"b\":false}]}}")));
	}

	@Test
	void aStaticResponseThatIsMarkupWithoutContentTypeIsSentAsHtmlAsWritten() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /vets.html, method: GET, fallback: static, static_response: "<p>Vets are resting</p>" }
				      - { path: /feed.xml, method: GET, fallback: static, static_response: "<?xml version='1.0'?><feed/>" }
				      - { path: /api/note, method: GET, fallback: static, static_response: "a < b" }
				""");
		assertThat(manifest.routes()).extracting(Route::fallback)
			.containsExactly(new Fallback.Static("<p>Vets are resting</p>", 200, "text/html;charset=UTF-8", Map.of()),
					new Fallback.Static("<?xml version='1.0'?><feed/>", 200, "application/xml", Map.of()),
					new Fallback.Static("\"a < b\""));
	}

	@Test
	void aStaticResponseMayBeAListOrAPlainValue() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: GET, fallback: static, static_response: [] }
				      - { path: /api/b, method: GET, fallback: static, static_response: "unavailable" }
				""");
		assertThat(manifest.routes()).extracting(Route::fallback)
			.containsExactly(new Fallback.Static("[]"), new Fallback.Static("\"unavailable\""));
	}

	@Test
	void placeholdersInTextValuesAreResolved() {
		DegradationManifest manifest = load(this.loader, """
				dependencies:
				  catalog:
				    health_url: http://${catalog.host}:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""");
		assertThat(manifest.dependency("catalog")).hasValueSatisfying((dependency) -> assertThat(
				dependency.healthUrl()).isEqualTo(URI.create("http://catalog.internal:8080/healthz")));
	}

	@Test
	void aPlaceholderInANumericKeyResolvesToANumber() {
		DegradationManifest manifest = load(this.loader, """
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: ${catalog.timeout}
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""");
		assertThat(manifest.dependency("catalog")).hasValueSatisfying(
				(dependency) -> assertThat(dependency.healthCheck().timeout()).isEqualTo(Duration.ofMillis(750)));
	}

	@Test
	void anUnresolvablePlaceholderIsReportedAtItsValue() {
		assertThat(onlyProblem(this.loader, """
				dependencies:
				  catalog:
				    health_url: http://${catalog.hostname}:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(3, 17, "dependencies.catalog.health_url",
				"cannot resolve a placeholder in 'http://${catalog.hostname}:8080/healthz': "
						+ "Could not resolve placeholder 'catalog.hostname'"));
	}

	@Test
	void anUnclosedPlaceholderIsReportedAtItsValueInsteadOfBeingTakenForText() {
		assertThat(onlyProblem(this.loader, """
				dependencies:
				  catalog:
				    health_url: ${catalog.url/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(3, 17, "dependencies.catalog.health_url",
				"'${catalog.url/healthz' has a '${' without its closing '}'; "
						+ "write placeholders as ${name} or ${name:default}"));
	}

	@Test
	void anEmptyPlaceholderIsReportedAtItsValue() {
		assertThat(onlyProblem(this.loader, """
				tiers:
				  optional:
				    priority: ${}
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(3, 15, "tiers.optional.priority",
				"'${}' has a placeholder without a name; write placeholders as ${name} or ${name:default}"));
	}

	@Test
	void aPlaceholderThatResolvesToTextInANumericKeyIsReportedAtItsValue() {
		assertThat(onlyProblem(this.loader, """
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: ${word}
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(4, 17, "dependencies.catalog.timeout_ms",
				"expected a number, but '${word}' resolved to 'fast'"));
	}

	@Test
	void aResolvedNumberIsStillRangeChecked() {
		assertThat(onlyProblem(this.loader, """
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				    timeout_ms: ${zero}
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""")).isEqualTo(problem(4, 17, "dependencies.catalog.timeout_ms",
				"'timeout_ms' must be between 1 and 2147483647, but it is 0"));
	}

	@Test
	void aCharacterOutsideTheBasicPlaneLoadsWhereverItFallsInTheParsersReads() {
		// The YAML parser read 1024 characters at a time and failed on an emoji cut in two by a
		// read; the comment moves the emoji across the first boundaries.
		for (int offset = 1000; offset <= 2100; offset++) {
			String yaml = "# " + "x".repeat(offset - 2) + "🚦\n" + """
					tiers:
					  optional:
					    priority: 1
					    routes:
					      - { path: /api/recommendations, method: GET, fallback: static, static_response: "🚦" }
					""";
			assertThat(load(yaml).routes()).as("emoji at %d", offset).singleElement()
				.satisfies((route) -> assertThat(route.fallback()).isEqualTo(new Fallback.Static("\"🚦\"")));
		}
	}

	@Test
	void aManifestCanBeReadFromAStream() {
		DegradationManifest manifest = ManifestLoading.LOADER.load(SOURCE,
				new ByteArrayInputStream(SEED.getBytes(StandardCharsets.UTF_8)));
		assertThat(manifest).isEqualTo(load(SEED));
	}

	@Test
	void aUtf8ByteOrderMarkIsIgnoredAndDoesNotShiftColumns() {
		byte[] yaml = ("\uFEFF" + """
				colour: blue
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""").getBytes(StandardCharsets.UTF_8);
		assertThat(ManifestLoading.failure(ManifestLoading.LOADER, yaml).getProblems()).containsExactly(problem(1, 1,
				"colour", "unknown key 'colour' (known keys: defaults, dependencies, overload, pressure, tiers)"));
	}

	@Test
	void aRefusedRequestIsAnswered503Or429AndNothingElse() {
		String section = "tiers: { a: { priority: 1, routes: [ { path: /a, method: GET, fallback: drop } ] } }\n";
		assertThat(ManifestLoading.load("overload:\n  refusal_status: 429\n" + section).overload().refusalStatus())
			.isEqualTo(429);
		assertThat(ManifestLoading.load("overload: {}\n" + section).overload().refusalStatus()).isEqualTo(503);
		assertThat(ManifestLoading.problems("overload:\n  refusal_status: 500\n" + section))
			.containsExactly(problem(2, 19, "overload.refusal_status",
					"a refused request is answered 503 (the service is overloaded) or 429 (the caller sends too much), "
							+ "not 500"));
	}

	private static UnaryOperator<String> placeholders(Map<String, String> values) {
		Pattern placeholder = Pattern.compile("\\$\\{([^}]+)}");
		return (text) -> {
			Matcher matcher = placeholder.matcher(text);
			StringBuilder resolved = new StringBuilder();
			while (matcher.find()) {
				String value = values.get(matcher.group(1));
				if (value == null) {
					throw new IllegalArgumentException("Could not resolve placeholder '" + matcher.group(1) + "'");
				}
				matcher.appendReplacement(resolved, Matcher.quoteReplacement(value));
			}
			return matcher.appendTail(resolved).toString();
		};
	}

}
