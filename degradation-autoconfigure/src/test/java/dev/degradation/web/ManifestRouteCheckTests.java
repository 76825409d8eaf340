package dev.degradation.web;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.Position;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which manifest routes the application's handlers serve, and which handlers are core.
 */
class ManifestRouteCheckTests {

	private static final List<HandlerRoute> HANDLERS = List.of(
			new HandlerRoute(Set.of("GET"), "/api/products", "products()"),
			new HandlerRoute(Set.of("GET"), "/api/products/{id}", "product(id)"),
			new HandlerRoute(Set.of("GET"), "/api/orders/{orderId:\\d+}", "order(orderId)"),
			new HandlerRoute(Set.of("POST"), "/api/analytics/track", "track()"),
			new HandlerRoute(Set.of("GET"), "/api/recommendations", "recommendations()"),
			new HandlerRoute(Set.of(), "/api/media/{id}/chunks", "chunks(id)"),
			new HandlerRoute(Set.of("GET"), "/api/catalog/{id}/reviews", "reviews(id)"),
			new HandlerRoute(Set.of("GET"), "/api/catalog/featured/reviews", "featuredReviews()"));

	@Test
	void routesThatAHandlerServesMatchWhateverTheVariableNames() {
		assertThat(unmatched("""
				- { path: "/api/products/{productId}", method: GET, fallback: drop }
				- { path: "/api/orders/{id}", method: GET, fallback: drop }
				- { path: /api/analytics/track, method: POST, fallback: drop }
				""")).isEmpty();
	}

	@Test
	void aHeadRouteIsServedByAGetHandlerAndAHandlerWithoutMethodsServesEveryMethod() {
		assertThat(unmatched("""
				- { path: /api/recommendations, method: HEAD, fallback: drop }
				- { path: "/api/media/{m}/chunks", method: DELETE, fallback: drop }
				""")).isEmpty();
	}

	@Test
	void aWildcardRouteMatchesTheHandlersItCovers() {
		assertThat(unmatched("""
				- { path: "/api/products/**", method: GET, fallback: drop }
				""")).isEmpty();
	}

	@Test
	void aMistypedPathMatchesNoHandlerAndIsReportedWithItsPositionAndTheClosestHandler() {
		ManifestRouteCheck.Result result = check("""
				- { path: /api/recommendations, method: GET, fallback: drop }
				- { path: /api/recomendations, method: GET, fallback: drop }
				""");
		assertThat(result.unmatched()).singleElement().satisfies((unmatched) -> {
			assertThat(unmatched.route().path()).isEqualTo("/api/recomendations");
			assertThat(unmatched.route().position()).isEqualTo(new Position(6, 9));
			assertThat(unmatched.yamlPath()).isEqualTo("tiers.enhanced.routes[1]");
			assertThat(unmatched.suggestion()).isEqualTo("/api/recommendations");
		});
	}

	@Test
	void aRouteWithTheWrongMethodMatchesNoHandler() {
		assertThat(unmatched("""
				- { path: /api/analytics/track, method: GET, fallback: drop }
				""")).containsExactly("GET /api/analytics/track");
	}

	@Test
	void handlersThatNoRouteCoversAreTheCoreRoutes() {
		ManifestRouteCheck.Result result = check("""
				- { path: /api/recommendations, method: GET, fallback: drop }
				- { path: /api/analytics/track, method: POST, fallback: drop }
				""");
		assertThat(result.coreHandlers()).extracting(HandlerRoute::pattern)
			.containsExactly("/api/products", "/api/products/{id}", "/api/orders/{orderId:\\d+}",
					"/api/media/{id}/chunks", "/api/catalog/{id}/reviews", "/api/catalog/featured/reviews");
	}

	@Test
	void aRouteThatNamesAHandlerButCatchesAMoreSpecificOneReportsTheCaughtHandler() {
		ManifestRouteCheck.Result result = check("""
				- { path: "/api/catalog/{catalogId}/reviews", method: GET, fallback: drop }
				""");
		assertThat(result.shadowed()).singleElement().satisfies((shadowed) -> {
			assertThat(shadowed.route().path()).isEqualTo("/api/catalog/{catalogId}/reviews");
			assertThat(shadowed.handler().pattern()).isEqualTo("/api/catalog/featured/reviews");
			assertThat(shadowed.yamlPath()).isEqualTo("tiers.enhanced.routes[0]");
		});
	}

	@Test
	void aCaughtHandlerThatTheManifestNamesToo() {
		assertThat(check("""
				- { path: "/api/catalog/{id}/reviews", method: GET, fallback: drop }
				- { path: /api/catalog/featured/reviews, method: GET, fallback: drop }
				""").shadowed()).isEmpty();
	}

	@Test
	void aRouteThatNamesNoHandlerShedsEveryHandlerUnderItAndShadowsNothing() {
		assertThat(check("""
				- { path: "/api/catalog/**", method: GET, fallback: drop }
				""").shadowed()).isEmpty();
	}

	@Test
	void samplePathsGiveEveryVariableAndWildcardANumberAndThenALetter() {
		assertThat(ManifestRouteCheck.samplePaths("/api/orders/{orderId:\\d+}/lines/*"))
			.containsExactly("/api/orders/1/lines/1", "/api/orders/x/lines/x");
		assertThat(ManifestRouteCheck.samplePaths("/api/files/{*path}")).containsExactly("/api/files/1",
				"/api/files/x");
		assertThat(ManifestRouteCheck.samplePaths("/api/products")).containsExactly("/api/products");
	}

	@Test
	void findingsAreProblemsOfTheManifestAtTheRoute() {
		ManifestRouteCheck.Result result = check("""
				- { path: /api/recomendations, method: GET, fallback: drop }
				""");
		assertThat(result.unmatched()).singleElement()
			.extracting((unmatched) -> unmatched.problem("test.yaml").toString())
			.isEqualTo("test.yaml:5:9: tiers.enhanced.routes[0]: GET /api/recomendations matches no handler of the "
					+ "application, so it would never be shed; did you mean /api/recommendations?");
	}

	private List<String> unmatched(String routes) {
		return check(routes).unmatched().stream().map((unmatched) -> unmatched.route().toString()).toList();
	}

	private ManifestRouteCheck.Result check(String routes) {
		String yaml = "tiers:\n  enhanced:\n    priority: 1\n    routes:\n" + routes.indent(6);
		DegradationManifest manifest = ManifestLoader.standard().load("test.yaml", yaml.getBytes(StandardCharsets.UTF_8));
		return ManifestRouteCheck.check(manifest, HANDLERS);
	}

}
