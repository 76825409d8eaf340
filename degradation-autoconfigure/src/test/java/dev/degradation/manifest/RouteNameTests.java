package dev.degradation.manifest;

import org.junit.jupiter.api.Test;

import static dev.degradation.manifest.ManifestLoading.load;
import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static dev.degradation.manifest.ManifestLoading.problem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route's optional {@code name}, by which an operator switches it alone: one namespace with the
 * tier names, so that a switch never names two things.
 */
class RouteNameTests {

	@Test
	void aRouteMayHaveAName() {
		DegradationManifest manifest = load("""
				tiers:
				  best-effort:
				    priority: 1
				    routes:
				      - { name: tracking, path: /track, method: POST, fallback: drop }
				      - { path: /assign, method: GET, fallback: drop }
				""");
		assertThat(manifest.routes()).extracting(Route::name).containsExactly("tracking", null);
	}

	@Test
	void aRouteNameMustBeAValidName() {
		assertThat(onlyProblem("""
				tiers:
				  best-effort:
				    priority: 1
				    routes:
				      - { name: "track ing", path: /track, method: POST, fallback: drop }
				""")).isEqualTo(problem(5, 17, "tiers.best-effort.routes[0].name", "'track ing' is not a valid route "
				+ "name: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64"));
	}

	@Test
	void twoRoutesMayNotShareAName() {
		assertThat(onlyProblem("""
				tiers:
				  best-effort:
				    priority: 1
				    routes:
				      - { name: tracking, path: /track, method: POST, fallback: drop }
				  enhanced:
				    priority: 2
				    routes:
				      - { name: tracking, path: /other, method: POST, fallback: drop }
				""")).isEqualTo(problem(9, 17, "tiers.enhanced.routes[0].name",
				"'tracking' is already the name of tiers.best-effort.routes[0].name; route names must be unique"));
	}

	@Test
	void aRouteNameMayNotBeATiersName() {
		assertThat(onlyProblem("""
				tiers:
				  best-effort:
				    priority: 1
				    routes:
				      - { name: enhanced, path: /track, method: POST, fallback: drop }
				  enhanced:
				    priority: 2
				    routes:
				      - { path: /other, method: POST, fallback: drop }
				""")).isEqualTo(problem(5, 17, "tiers.best-effort.routes[0].name", "'enhanced' is also a tier's name; "
				+ "a route name must differ from every tier name, since both name switches"));
	}

}
