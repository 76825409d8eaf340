package dev.degradation.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What the valid but unusual manifests of the corpus load into: that they load at all is checked
 * with the rest of the corpus, and this checks that they mean what their authors wrote.
 */
class UnusualManifestsTests {

	private static final Path VALID = Path.of("src/test/resources/corpus/valid");

	@Test
	void regularExpressionsAndCatchAllsKeepTheirPatterns() {
		assertThat(load("regex-variables-and-catch-alls.yaml").routes()).extracting(Route::path)
			.containsExactly("/api/users/{name:[a-z]+}", "/api/orders/{id:\\d+}",
					"/api/orders/{id:\\d+}/lines/{line:[0-9]+}", "/api/{version:v[0-9]+}/status", "/api/files/{*rest}",
					"/api/archive/{year:\\d{4}}/**", "/api/tags/{tag:[a-z][a-z0-9-]*}");
	}

	@Test
	void sparsePrioritiesShedInTheirOrderWhateverTheOrderOfTheFile() {
		assertThat(load("sparse-priorities.yaml").tiers()).extracting(Tier::name, Tier::priority)
			.containsExactly(tuple("first", 1), tuple("middle", 50), tuple("last", 999));
	}

	@Test
	void unusualPlaceholderDefaultsResolveToWhatTheyHold() {
		DegradationManifest manifest = load("placeholders-with-unusual-defaults.yaml");
		assertThat(manifest.dependency("catalog").orElseThrow()).satisfies((catalog) -> {
			assertThat(catalog.healthUrl()).hasToString("http://catalog.internal:8080/healthz");
			assertThat(catalog.healthCheck().timeout()).isEqualTo(Duration.ofMillis(750));
			assertThat(catalog.healthCheck().window()).isEqualTo(Duration.ofSeconds(60));
		});
		assertThat(manifest.tiers()).extracting(Tier::priority).containsExactly(7);
		Route route = manifest.routes().get(0);
		assertThat(route).hasToString("GET /api/catalog/{id}");
		assertThat(route.requires()).containsExactly("catalog");
		assertThat(((Fallback.Static) route.fallback()).body())
			.isEqualTo("{\"note\":\"${not.resolved} is sent as written\",\"source\":\"degraded\"}");
	}

	@Test
	void unicodeBodiesAndPathsArePreservedAsWritten() {
		DegradationManifest manifest = load("unicode-in-bodies-paths-and-keys.yaml");
		assertThat(manifest.routes()).extracting(Route::path)
			.containsExactly("/api/café/{name}", "/api/日本語/おすすめ", "/api/emoji");
		assertThat(((Fallback.Static) manifest.routes().get(2).fallback()).body())
			.isEqualTo("[\"🚦\",\"👩🏽‍💻\",\"𝄞\",\"e\u0301\",\"é\"]");
	}

	@Test
	void shortTimeoutsOfEachDependencyAreWhatTheSmallWindowIsJudgedWith() {
		assertThat(load("short-timeouts-and-a-small-window.yaml").dependencies())
			.extracting((dependency) -> dependency.healthCheck().timeout(),
					(dependency) -> dependency.healthCheck().window(), (dependency) -> dependency.healthCheck().minSamples())
			.containsExactly(tuple(Duration.ofMillis(100), Duration.ofSeconds(5), 4),
					tuple(Duration.ofMillis(200), Duration.ofSeconds(5), 4));
	}

	@Test
	void methodsInAnyCaseAreReadInUpperCase() {
		assertThat(load("methods-in-any-case.yaml").routes()).extracting(Route::method)
			.containsExactly("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
	}

	@Test
	void aliasesStandForWhatTheirAnchorsName() {
		DegradationManifest manifest = load("anchors-and-aliases.yaml");
		assertThat(manifest.dependency("catalog-replica").orElseThrow().healthCheck())
			.isEqualTo(manifest.dependency("catalog").orElseThrow().healthCheck());
		assertThat(manifest.dependency("search").orElseThrow().healthCheck().timeout())
			.isEqualTo(Duration.ofMillis(500));
		assertThat(manifest.routes()).extracting(Route::toString, Route::requires)
			.containsExactly(tuple("GET /api/recommendations", List.of("catalog")),
					tuple("GET /api/suggestions", List.of("catalog", "search")),
					tuple("GET /api/reviews", List.of("catalog-replica")),
					tuple("GET /api/related", List.of()));
		assertThat(((Fallback.Static) manifest.routes().get(3).fallback()).body())
			.isEqualTo("{\"related\":{\"items\":[],\"source\":\"degraded\"}}");
	}

	private static DegradationManifest load(String name) {
		try {
			return ManifestSchemaAgreementTests.LOADER.load(name, Files.readAllBytes(VALID.resolve(name)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
