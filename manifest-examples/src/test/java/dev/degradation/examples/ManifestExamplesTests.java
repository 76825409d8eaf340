package dev.degradation.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.ShedScope;
import dev.degradation.manifest.Tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Loads every example manifest ({@code manifests/*.yaml}, so that a new example is checked as
 * soon as it is added) with the starter's loader, and checks what the loader does not: that each
 * example is a useful illustration of the format.
 */
class ManifestExamplesTests {

	private static final String EXAMPLES = "classpath:manifests/*.yaml";

	// Loaded as the starter loads them in an application with the Actuator at its default path.
	private static final ManifestLoader LOADER = ManifestLoader.standard().withReservedBasePath("/actuator");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String MODELINE = "# yaml-language-server: $schema=";

	private static final Path SOURCES = Path.of("src/main/resources/manifests");

	static List<Resource> exampleFiles() {
		try {
			Resource[] resources = new PathMatchingResourcePatternResolver().getResources(EXAMPLES);
			return Arrays.stream(resources).sorted(Comparator.comparing(ManifestExamplesTests::fileName)).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static Stream<Named<Resource>> examples() {
		return exampleFiles().stream().map((resource) -> Named.of(fileName(resource), resource));
	}

	@Test
	void atLeastThreeExamplesExistIncludingTheDocumentedOnes() {
		assertThat(exampleFiles()).hasSizeGreaterThanOrEqualTo(3)
			.extracting(ManifestExamplesTests::fileName)
			.contains("online-store.yaml", "media-streaming.yaml", "api-gateway.yaml");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("examples")
	void exampleLoadsWithoutAnyProblem(Resource example) {
		DegradationManifest manifest = load(example);
		assertThat(manifest.source()).isEqualTo(fileName(example));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("examples")
	void exampleStartsWithTheModelineThatGivesEditorsTheSchema(Resource example) throws IOException {
		String firstLine = example.getContentAsString(StandardCharsets.UTF_8).lines().findFirst().orElse("");
		assertThat(firstLine).startsWith(MODELINE);
		// The path is relative to the example's source file, where an editor opens it.
		Path schema = SOURCES.resolve(firstLine.substring(MODELINE.length())).normalize();
		try (InputStream shipped = getClass().getClassLoader().getResourceAsStream(ManifestSchema.LOCATION)) {
			assertThat(shipped).isNotNull();
			assertThat(schema).isRegularFile().hasBinaryContent(shipped.readAllBytes());
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("examples")
	void exampleDeclaresDependenciesAndAtLeastTwoTiersInAscendingPriority(Resource example) {
		DegradationManifest manifest = load(example);
		assertThat(manifest.dependencies()).isNotEmpty();
		assertThat(manifest.tiers()).hasSizeGreaterThanOrEqualTo(2)
			.extracting(Tier::priority)
			.isSortedAccordingTo(Comparator.naturalOrder())
			.doesNotHaveDuplicates();
		assertThat(manifest.tiers()).allSatisfy((tier) -> assertThat(tier.routes()).as(tier.name()).isNotEmpty());
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("examples")
	void everyDeclaredDependencyIsRequiredBySomeRoute(Resource example) {
		// A dependency no route requires is probed for nothing; in an example it is a mistake.
		DegradationManifest manifest = load(example);
		Set<String> required = new HashSet<>();
		manifest.routes().forEach((route) -> required.addAll(route.requires()));
		assertThat(manifest.dependencies()).extracting(Dependency::name).allMatch(required::contains);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("examples")
	void everyRouteRequiresADependency(Resource example) {
		// Without one, only simulation or overload could ever shed the route.
		assertThat(load(example).routes()).allSatisfy((route) -> assertThat(route.requires()).as(route.toString())
			.isNotEmpty());
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("examples")
	void everyStaticBodyIsAnObjectMarkedAsDegraded(Resource example) {
		// The convention the examples teach: a consumer can tell a fallback from a real answer
		// by its body too, not only by the X-Degraded header.
		for (Route route : load(example).routes()) {
			if (route.fallback() instanceof Fallback.Static staticFallback) {
				JsonNode body = JSON.readTree(staticFallback.body());
				assertThat(body.isObject()).as(route.toString()).isTrue();
				assertThat(body.path("source").asString()).as(route.toString()).isEqualTo("degraded");
			}
		}
	}

	@Test
	void examplesTogetherShowBothFallbacksAndBothKindsOfPathPattern() {
		List<Route> routes = exampleFiles().stream().flatMap((example) -> load(example).routes().stream()).toList();
		assertThat(routes).extracting((route) -> route.fallback().kind())
			.contains(Fallback.Drop.KIND, Fallback.Static.KIND);
		assertThat(routes).extracting(Route::path)
			.anyMatch((path) -> path.contains("{"))
			.anyMatch((path) -> path.endsWith("/**"));
		assertThat(routes).extracting(Route::method).contains("GET", "POST");
	}

	@Test
	void onlineStoreExampleIsTheSeedManifest() {
		Resource example = exampleFiles().stream()
			.filter((resource) -> fileName(resource).equals("online-store.yaml"))
			.findFirst()
			.orElseThrow();
		DegradationManifest manifest = load(example);
		assertThat(manifest.defaults().failedDependencySheds()).isEqualTo(ShedScope.TIERS);
		assertThat(manifest.dependencies()).extracting(Dependency::name)
			.containsExactly("recommendations-api", "analytics-collector", "personalization-service");
		assertThat(manifest.tiers()).extracting(Tier::name, Tier::priority)
			.containsExactly(tuple("best-effort", 1),
					tuple("enhanced", 2));
		assertThat(manifest.routes()).extracting(Route::toString)
			.containsExactly("POST /api/analytics/track", "GET /api/ab/assign", "GET /api/recommendations",
					"GET /api/personalization");
	}

	private static DegradationManifest load(Resource example) {
		try (InputStream input = example.getInputStream()) {
			return LOADER.load(fileName(example), input);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String fileName(Resource resource) {
		return Objects.requireNonNull(resource.getFilename(), () -> "No file name for " + resource);
	}

}
