package dev.degradation.test.contract;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.Events;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.test.context.ContextConfiguration;

import dev.degradation.test.OnlyInTestKit;
import dev.degradation.test.TestKit;
import dev.degradation.test.testapp.BrokenVariants;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract tests on WebFlux: the shop of {@link ShopContractTests}, served by WebFlux, passes
 * every route at every level and every core handler through {@code WebTestClient} in a
 * {@code @WebFluxTest} and against a running Reactor Netty server; a broken variant fails as it
 * does on Spring MVC, naming the route and where the manifest declares it.
 */
class ReactiveShopContractTests {

	private static final String REACTIVE = "spring.main.web-application-type=reactive";

	// The shop's contract as on Spring MVC, without Spring MVC's error controller (GET /error):
	// WebFlux answers errors from a WebExceptionHandler, not a handler.
	private static final List<String> TESTS = List.of(
			"POST /api/analytics/track (best-effort) > POST /api/analytics/track is served by "
					+ "ShopController#track(Map)",
			"POST /api/analytics/track (best-effort) > POST /api/analytics/track at level 0: reaches the application",
			"POST /api/analytics/track (best-effort) > POST /api/analytics/track at level 1: answers 204, its "
					+ "drop fallback",
			"POST /api/analytics/track (best-effort) > POST /api/analytics/track at level 2: answers 204, its "
					+ "drop fallback",
			"GET /api/recommendations (enhanced) > GET /api/recommendations is served by "
					+ "ShopController#recommendations()",
			"GET /api/recommendations (enhanced) > GET /api/recommendations at level 0: reaches the application",
			"GET /api/recommendations (enhanced) > GET /api/recommendations at level 1: reaches the application",
			"GET /api/recommendations (enhanced) > GET /api/recommendations at level 2: answers its static fallback",
			"GET /api/products/{id}/reviews (enhanced) > GET /api/products/{id}/reviews is served by "
					+ "ShopController#reviews(String)",
			"GET /api/products/{id}/reviews (enhanced) > GET /api/products/{id}/reviews at level 0: reaches the "
					+ "application",
			"GET /api/products/{id}/reviews (enhanced) > GET /api/products/{id}/reviews at level 1: reaches the "
					+ "application",
			"GET /api/products/{id}/reviews (enhanced) > GET /api/products/{id}/reviews at level 2: answers its "
					+ "static fallback",
			"handlers not in the manifest, at level 2 > POST /api/orders is never degraded",
			"handlers not in the manifest, at level 2 > GET /api/products is never degraded",
			"handlers not in the manifest, at level 2 > GET /api/products/{id} is never degraded");

	private static final String RECOMMENDATIONS = "GET /api/recommendations of tier enhanced (priority 2), "
			+ "declared at classpath:contract/shop.yaml:21:9 (tiers.enhanced.routes[0])";

	@Test
	void everyRouteAtEveryLevelAndEveryCoreHandlerPassesWithWebTestClientInAWebFluxTest() {
		Events events = TestKit.run(WebTestClientContract.class);
		assertThat(TestKit.failures(events)).isEmpty();
		assertThat(TestKit.names(events)).containsExactlyElementsOf(TESTS);
	}

	@Test
	void everyRouteAtEveryLevelAndEveryCoreHandlerPassesAgainstTheRunningNettyServer() {
		Events events = TestKit.run(NettyServerContract.class);
		assertThat(TestKit.failures(events)).isEmpty();
		assertThat(TestKit.names(events)).containsExactlyElementsOf(TESTS);
	}

	@Test
	void aWebFilterBeforeTheDegradationFilterThatAnswersARouteFailsItAtEveryLevel() {
		List<String> failures = TestKit.failures(TestKit.run(WebFilterBeforeWithWebTestClient.class));
		assertThat(failures).hasSize(3);
		assertThat(failures).allSatisfy((failure) -> assertThat(failure).contains(RECOMMENDATIONS));
		assertThat(failures.get(0)).startsWith("GET /api/recommendations (enhanced) > GET /api/recommendations "
				+ "at level 0: reaches the application: GET /api/recommendations at level 0 should reach the "
				+ "application, as " + RECOMMENDATIONS + " is shed from level 2 on, but it did not reach the handler "
				+ "ShopController#recommendations(): something answered before the handler could");
		assertThat(failures.get(2)).startsWith("GET /api/recommendations (enhanced) > GET /api/recommendations "
				+ "at level 2: answers its static fallback: GET /api/recommendations at level 2 should be answered "
				+ "by the static fallback of " + RECOMMENDATIONS + ", but the answer is not degraded (no "
				+ "'X-Degraded: true'): something answered before the degradation filter could");
		assertThat(failures.get(2)).contains("body {\"items\": [\"p-1\"], \"source\": \"cache\"}");
	}

	@Test
	void aMistypedRouteFailsWithItsPositionAndTheHandlerItMeant() {
		List<String> failures = TestKit.failures(TestKit.run(MistypedRoute.class));
		assertThat(failures).containsExactly("GET /api/recomendations (enhanced) > GET /api/recomendations is "
				+ "served by a handler of the application: classpath:contract/typo.yaml:20:9: "
				+ "tiers.enhanced.routes[0]: GET /api/recomendations matches no handler of the application, so it "
				+ "would never be shed; did you mean /api/recommendations?");
	}

	@OnlyInTestKit
	@WebFluxTest(properties = ShopApplication.MANIFEST)
	@ContextConfiguration(classes = ShopApplication.class)
	static class WebTestClientContract extends DegradationContractTests {

	}

	@OnlyInTestKit
	@SpringBootTest(classes = ShopApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { ShopApplication.MANIFEST, REACTIVE })
	static class NettyServerContract extends DegradationContractTests {

	}

	@OnlyInTestKit
	@WebFluxTest(properties = ShopApplication.MANIFEST)
	@ContextConfiguration(classes = { ShopApplication.class, BrokenVariants.WebFilterBeforeTheDegradationFilter.class })
	static class WebFilterBeforeWithWebTestClient extends DegradationContractTests {

	}

	@OnlyInTestKit
	@WebFluxTest(properties = "degradation.manifest=classpath:contract/typo.yaml")
	@ContextConfiguration(classes = ShopApplication.class)
	static class MistypedRoute extends DegradationContractTests {

	}

}
