package dev.degradation.manifest;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static dev.degradation.manifest.ManifestLoading.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Placeholders are resolved within bounds: a value nested too deep, holding too many placeholders,
 * or naming values that expand too far is refused at its position before it costs the stack or
 * the heap, with Spring's own resolution of the rest unchanged.
 */
class PlaceholderBoundsTests {

	/** Far above what any bounded resolution takes; an unbounded one hangs or overflows instead. */
	private static final Duration PER_LOAD = Duration.ofSeconds(5);

	private static final Map<String, String> PROPERTIES = properties();

	private static final ManifestLoader LOADER = ManifestLoading.LOADER
		.withPlaceholderResolver(Placeholders.resolver(PROPERTIES::get));

	@Test
	void placeholdersResolveAsSpringResolvesThem() {
		DegradationManifest manifest = ManifestLoading.load(LOADER, manifest("\"http://${host}:${port:8080}${path:/${base}/healthz}\""));
		assertThat(manifest.dependency("catalog").orElseThrow().healthUrl())
			.hasToString("http://catalog.internal:8080/catalog/healthz");
		assertThat(Placeholders.resolver(PROPERTIES::get).apply("${host}/\\${literal}"))
			.isEqualTo("catalog.internal/${literal}");
	}

	@Test
	void nestingUpToTheBoundResolves() {
		String nested = "${missing:".repeat(Placeholders.MAX_DEPTH - 1) + "${host}" + "}".repeat(Placeholders.MAX_DEPTH - 1);
		assertThat(ManifestLoading.load(LOADER, manifest("\"http://" + nested + "/healthz\""))
			.dependency("catalog")
			.orElseThrow()
			.healthUrl()).hasToString("http://catalog.internal/healthz");
	}

	@Test
	void nestingPastTheBoundIsRefusedAtItsValue() {
		int depth = Placeholders.MAX_DEPTH + 1;
		String nested = "${a:".repeat(depth) + "x" + "}".repeat(depth);
		ManifestProblem problem = onlyProblem(LOADER, manifest("\"" + nested + "\""));
		assertThat(problem.position()).isEqualTo(new Position(3, 17));
		assertThat(problem.path()).isEqualTo("dependencies.catalog.health_url");
		assertThat(problem.message()).contains("nests placeholders " + depth + " deep; at most "
				+ Placeholders.MAX_DEPTH + " levels are resolved");
	}

	@Property(tries = 12)
	void anyNestingDepthIsResolvedOrRefusedAtItsValueQuickly(@ForAll @IntRange(min = 1, max = 60_000) int depth,
			@ForAll("wrappers") String wrapper) {
		int opened = wrapper.split("\\$\\{", -1).length - 1;
		String nested = wrapper.repeat(depth) + "x" + "}".repeat(depth * opened);
		List<ManifestProblem> problems = assertTimeoutPreemptively(PER_LOAD,
				() -> problemsOrNone(manifest("\"" + nested + "\"")));
		if (depth * opened > Placeholders.MAX_DEPTH) {
			assertThat(problems).singleElement()
				.satisfies((problem) -> assertThat(problem.path()).isEqualTo("dependencies.catalog.health_url"))
				.satisfies((problem) -> assertThat(problem.message()).contains("nests placeholders " + depth * opened + " deep"));
		}
		else {
			assertThat(problems).allSatisfy((problem) -> assertThat(problem.message()).doesNotContain("deep"));
		}
	}

	@Test
	void tooManyPlaceholdersInOneValueAreRefusedAtItsValue() {
		String many = "http://${host}/" + "${base}".repeat(Placeholders.MAX_PER_VALUE);
		assertThat(onlyProblem(LOADER, manifest("\"" + many + "\"")).message())
			.contains("holds " + (Placeholders.MAX_PER_VALUE + 1) + " placeholders; at most "
					+ Placeholders.MAX_PER_VALUE + " are resolved in one value");
	}

	@Test
	void valuesThatExpandPastTheBoundAreRefusedAtTheirValue() {
		// bomb40 names bomb39 twice, which names bomb38 twice...: 2^40 copies once expanded.
		ManifestProblem problem = assertTimeoutPreemptively(PER_LOAD,
				() -> onlyProblem(LOADER, manifest("\"http://${bomb40}/healthz\"")));
		assertThat(problem.position()).isEqualTo(new Position(3, 17));
		assertThat(problem.message()).startsWith("cannot resolve the placeholders of 'http://${bomb40}/healthz': ")
			.containsAnyOf("expands past " + Placeholders.MAX_RESOLVED_LENGTH + " characters",
					"more than " + Placeholders.MAX_LOOKUPS + " lookups");
	}

	@Test
	void aLongChainOfValuesIsRefusedAtItsValue() {
		assertThat(onlyProblem(LOADER, manifest("\"http://${chain0}/healthz\"")).message())
			.contains("more than " + Placeholders.MAX_LOOKUPS + " lookups");
	}

	@Test
	void aValueNestedTooDeepWhereItIsDefinedIsRefusedAtTheValueThatNamesIt() {
		assertThat(onlyProblem(LOADER, manifest("\"http://${deep}/healthz\"")).message())
			.contains("the value of 'deep' nests placeholders");
	}

	@Test
	void aCircularReferenceIsAProblemAtItsValue() {
		assertThat(onlyProblem(LOADER, manifest("\"http://${loop}/healthz\"")).message())
			.contains("cannot resolve a placeholder in 'http://${loop}/healthz'")
			.contains("Circular placeholder reference");
	}

	@Test
	void boundsHoldWhenPlaceholdersWithoutAValueAreLeftUnchecked() {
		ManifestLoader lenient = LOADER.withUnresolvedPlaceholdersUnchecked();
		int depth = Placeholders.MAX_DEPTH + 1;
		assertThat(problems(lenient, manifest("\"" + "${a:".repeat(depth) + "x" + "}".repeat(depth) + "\"")))
			.singleElement()
			.satisfies((problem) -> assertThat(problem.message()).contains("nests placeholders"));
		assertThat(problems(lenient, manifest("\"http://${bomb40}/healthz\""))).singleElement()
			.satisfies((problem) -> assertThat(problem.message()).contains("cannot resolve the placeholders"));
	}

	@Test
	void aResolverThatOverflowsTheStackIsAProblemAtItsValue() {
		UnaryOperator<String> recursing = new UnaryOperator<>() {
			@Override
			public String apply(String text) {
				return apply(text + "!");
			}
		};
		ManifestProblem problem = onlyProblem(LOADER.withPlaceholderResolver(recursing),
				manifest("\"http://${host}/healthz\""));
		assertThat(problem.position()).isEqualTo(new Position(3, 17));
		assertThat(problem.message()).contains("resolving it failed with StackOverflowError");
	}

	@Provide
	Arbitrary<String> wrappers() {
		return Arbitraries.of("${a:", "${", "${${", "x${a:", "${host:");
	}

	private static List<ManifestProblem> problemsOrNone(String yaml) {
		try {
			ManifestLoading.load(LOADER, yaml);
			return List.of();
		}
		catch (InvalidManifestException ex) {
			return ex.getProblems();
		}
	}

	/**
	 * A manifest whose one dependency's {@code health_url} (line 3, column 17) is the given YAML
	 * value.
	 */
	private static String manifest(String healthUrl) {
		return """
				dependencies:
				  catalog:
				    health_url: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop, requires: [catalog] }
				""".formatted(healthUrl);
	}

	private static Map<String, String> properties() {
		Map<String, String> properties = new HashMap<>();
		properties.put("host", "catalog.internal");
		properties.put("base", "catalog");
		properties.put("bomb0", "xxxxxxxxxx");
		for (int i = 1; i <= 40; i++) {
			properties.put("bomb" + i, "${bomb" + (i - 1) + "}${bomb" + (i - 1) + "}");
		}
		for (int i = 0; i < 1000; i++) {
			properties.put("chain" + i, "${chain" + (i + 1) + "}");
		}
		properties.put("chain1000", "end");
		properties.put("deep", "${a:".repeat(5000) + "x" + "}".repeat(5000));
		properties.put("loop", "${loop}");
		return Map.copyOf(properties);
	}

}
