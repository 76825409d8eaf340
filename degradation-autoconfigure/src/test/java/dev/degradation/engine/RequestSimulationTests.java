package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a request's simulation headers are read against the token, and what a simulation sheds.
 */
class RequestSimulationTests {

	private static final String TOKEN = "a-token-of-at-least-16-characters";

	private static final byte[] DIGEST = RequestSimulation.digest(TOKEN);

	private static final String MANIFEST = """
			dependencies:
			  recommendations-api: { base_url: "http://127.0.0.1:9" }
			  analytics: { base_url: "http://127.0.0.1:9" }
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /api/track, method: POST, fallback: drop, requires: [analytics] }
			      - { path: /api/ab, method: GET, fallback: drop }
			  enhanced:
			    priority: 2
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: drop, requires: [recommendations-api] }
			""";

	@Test
	void aLevelOrFailedDependenciesAreReadWithTheRightToken() {
		assertThat(RequestSimulation.read(DIGEST, 2, "level=1", TOKEN)).extracting(RequestSimulation::level)
			.isEqualTo(1);
		assertThat(RequestSimulation.read(DIGEST, 2, " failed=a, b.c ,d_e ", TOKEN))
			.extracting(RequestSimulation::failed)
			.isEqualTo(Set.of("a", "b.c", "d_e"));
	}

	@Test
	void aLevelOutsideTheManifestsIsTheNearestOne() {
		assertThat(RequestSimulation.read(DIGEST, 2, "level=7", TOKEN).level()).isEqualTo(2);
		assertThat(RequestSimulation.read(DIGEST, 2, "level=99999999999999999999999", TOKEN).level()).isEqualTo(2);
		assertThat(RequestSimulation.read(DIGEST, 2, "level=-2147483648", TOKEN).level()).isZero();
	}

	@Test
	void aWrongOrMissingTokenOrAnotherFormAsksForNothing() {
		for (String token : new String[] { null, "", TOKEN.substring(1), TOKEN + "x", TOKEN.toUpperCase(),
				"x".repeat(10_000) }) {
			assertThat(RequestSimulation.read(DIGEST, 2, "level=2", token)).as(String.valueOf(token)).isNull();
		}
		for (String header : new String[] { "level=", "level=x", "level=1.5", "failed=", "failed=a,,b", "failed=a b",
				"failed=../x", "level=1;failed=a", "LEVEL=1", "fail=a", "", "failed=" + "a,".repeat(2000) + "a" }) {
			assertThat(RequestSimulation.read(DIGEST, 2, header, TOKEN)).as(header).isNull();
		}
	}

	@Property(tries = 500)
	void noHeaderValueFailsToReadAndNoneCountsWithoutTheToken(@ForAll String header, @ForAll String token) {
		RequestSimulation read = RequestSimulation.read(DIGEST, 2, header, token);
		if (!token.equals(TOKEN)) {
			assertThat(read).isNull();
		}
	}

	@Test
	void theTokenIsNeverPrinted() {
		assertThat(RequestSimulation.read(DIGEST, 2, "failed=a", TOKEN)).asString()
			.doesNotContain(TOKEN)
			.contains("failed=a");
	}

	@Test
	void aLevelShedsTheTiersUpToItAndFailedDependenciesTheRoutesThatRequireThem() {
		DegradationManifest manifest = manifest(MANIFEST);
		RequestSimulation level = new RequestSimulation(1, Set.of(), "level=1", TOKEN);
		assertThat(shed(level, manifest)).containsExactly("/api/track", "/api/ab");
		RequestSimulation failed = new RequestSimulation(0, Set.of("recommendations-api", "elsewhere"),
				"failed=recommendations-api,elsewhere", TOKEN);
		assertThat(shed(failed, manifest)).containsExactly("/api/recommendations");
		assertThat(failed.fails("recommendations-api")).isTrue();
		assertThat(failed.fails("analytics")).isFalse();
	}

	@Test
	void withTiersScopeAFailedDependencyShedsEveryTierUpToTheHighestThatRequiresIt() {
		DegradationManifest manifest = manifest("defaults: { failed_dependency_sheds: tiers }\n" + MANIFEST);
		RequestSimulation failed = new RequestSimulation(0, Set.of("recommendations-api"), "failed=recommendations-api",
				TOKEN);
		assertThat(shed(failed, manifest)).containsExactly("/api/track", "/api/ab", "/api/recommendations");
	}

	private static java.util.List<String> shed(RequestSimulation simulation, DegradationManifest manifest) {
		return manifest.routes()
			.stream()
			.filter((route) -> simulation.sheds(manifest, route, priority(manifest, route)))
			.map(Route::path)
			.toList();
	}

	private static int priority(DegradationManifest manifest, Route route) {
		return manifest.tier(route.tier()).orElseThrow().priority();
	}

	private static DegradationManifest manifest(String yaml) {
		return ManifestLoader.standard().load("simulation.yaml", yaml.getBytes(StandardCharsets.UTF_8));
	}

}
