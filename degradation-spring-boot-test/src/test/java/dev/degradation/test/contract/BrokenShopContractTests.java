package dev.degradation.test.contract;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.ContextConfiguration;

import dev.degradation.test.OnlyInTestKit;
import dev.degradation.test.TestKit;
import dev.degradation.test.testapp.BrokenVariants;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract of a shop that does not degrade as its manifest declares fails, and each failure
 * names the route and where the manifest declares it. The broken shops run through the JUnit
 * Platform, as a user's build would run them.
 */
class BrokenShopContractTests {

	private static final String RECOMMENDATIONS = "GET /api/recommendations of tier enhanced (priority 2), "
			+ "declared at classpath:contract/shop.yaml:21:9 (tiers.enhanced.routes[0])";

	private static final String REVIEWS = "GET /api/products/{id}/reviews of tier enhanced (priority 2), "
			+ "declared at classpath:contract/shop.yaml:26:9 (tiers.enhanced.routes[1])";

	@Test
	void aFilterBeforeTheDegradationFilterThatAnswersARouteFailsItAtEveryLevelOnTheServer() {
		assertFilterBeforeTheDegradationFilterIsCaught(TestKit.failures(TestKit.run(FilterBeforeOnTheServer.class)));
	}

	@Test
	void aFilterBeforeTheDegradationFilterThatAnswersARouteFailsItAtEveryLevelWithMockMvc() {
		assertFilterBeforeTheDegradationFilterIsCaught(TestKit.failures(TestKit.run(FilterBeforeWithMockMvc.class)));
	}

	private void assertFilterBeforeTheDegradationFilterIsCaught(List<String> failures) {
		assertThat(failures).hasSize(3);
		assertThat(failures).allSatisfy((failure) -> assertThat(failure).contains(RECOMMENDATIONS));
		assertThat(failures.get(0)).startsWith("GET /api/recommendations (enhanced) > GET /api/recommendations "
				+ "at level 0: reaches the "
				+ "application: GET /api/recommendations at level 0 should reach the application, as " + RECOMMENDATIONS
				+ " is shed from level 2 on, but it did not reach the handler ShopController#recommendations(): "
				+ "something answered before the handler could");
		assertThat(failures.get(1)).startsWith("GET /api/recommendations (enhanced) > GET /api/recommendations "
				+ "at level 1: reaches the "
				+ "application:");
		assertThat(failures.get(2)).startsWith("GET /api/recommendations (enhanced) > GET /api/recommendations "
				+ "at level 2: answers its static "
				+ "fallback: GET /api/recommendations at level 2 should be answered by the static fallback of "
				+ RECOMMENDATIONS + ", but the answer is not degraded (no 'X-Degraded: true'): something answered "
				+ "before the degradation filter could");
		assertThat(failures.get(2)).contains("answer:   200, Content-Type: application/json",
				"body {\"items\": [\"p-1\"], \"source\": \"cache\"}");
	}

	@Test
	void aServletThatServesARoutesPathFailsItAtEveryLevelOnTheServer() {
		List<String> failures = TestKit.failures(TestKit.run(ServletForTheRoutesPath.class));
		assertThat(failures).hasSize(3).allSatisfy((failure) -> assertThat(failure).contains(RECOMMENDATIONS));
		assertThat(failures.get(2)).contains("but the answer is not degraded", "\"source\": \"legacy\"");
	}

	@Test
	void aFilterThatRewritesTheFallbacksFailsEachStaticFallbackWithBothBodies() {
		List<String> failures = TestKit.failures(TestKit.run(EnvelopeFilter.class));
		assertThat(failures).hasSize(2);
		assertThat(failures.get(0)).startsWith("GET /api/recommendations (enhanced) > GET /api/recommendations "
				+ "at level 2: answers its static "
				+ "fallback: GET /api/recommendations at level 2 should be answered by the static fallback of "
				+ RECOMMENDATIONS + ", but its body is {\"data\": {\"items\":[],\"source\":\"degraded\"}} instead of "
				+ "the manifest's static_response {\"items\":[],\"source\":\"degraded\"}");
		assertThat(failures.get(1)).startsWith("GET /api/products/{id}/reviews (enhanced) > GET "
				+ "/api/products/{id}/reviews at level 2: answers its "
				+ "static fallback: GET /api/products/1/reviews at level 2 should be answered by the static "
				+ "fallback of "
				+ REVIEWS + ", but its body is");
	}

	@Test
	void aRouteThatCatchesACoreHandlerFailsThatHandlerNamingTheRoute() {
		List<String> failures = TestKit.failures(TestKit.run(RouteCatchingACoreHandler.class));
		assertThat(failures).singleElement()
			.asString()
			.startsWith("handlers not in the manifest, at level 2 > GET /api/products/featured/reviews is never "
					+ "degraded: "
					+ "GET /api/products/featured/reviews is not in the manifest and should never be degraded: "
					+ "at level 2, "
					+ "GET /api/products/featured/reviews should reach "
					+ "FeaturedReviewsController#featuredReviews(), but it "
					+ "was answered by the fallback of tier 'enhanced' (X-Degradation-Reason: simulation): " + REVIEWS
					+ ", catches it\n  classpath:contract/shop.yaml:26:9: tiers.enhanced.routes[1]: GET "
					+ "/api/products/{id}/reviews also matches /api/products/featured/reviews");
	}

	@Test
	void aMistypedRouteFailsWithItsPositionAndTheHandlerItMeant() {
		List<String> failures = TestKit.failures(TestKit.run(MistypedRoute.class));
		assertThat(failures).containsExactly("GET /api/recomendations (enhanced) > GET /api/recomendations is "
				+ "served by a handler of the "
				+ "application: classpath:contract/typo.yaml:20:9: tiers.enhanced.routes[0]: GET /api/recomendations "
				+ "matches no handler of the application, so it would never be shed; did you mean "
				+ "/api/recommendations?");
	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, BrokenVariants.FilterBeforeTheDegradationFilter.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = ShopApplication.MANIFEST)
	static class FilterBeforeOnTheServer extends DegradationContractTests {

	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, BrokenVariants.FilterBeforeTheDegradationFilter.class },
			properties = ShopApplication.MANIFEST)
	@AutoConfigureMockMvc
	static class FilterBeforeWithMockMvc extends DegradationContractTests {

	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, BrokenVariants.ServletForTheRoutesPath.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = ShopApplication.MANIFEST)
	static class ServletForTheRoutesPath extends DegradationContractTests {

	}

	@OnlyInTestKit
	@WebMvcTest(properties = ShopApplication.MANIFEST)
	@ContextConfiguration(classes = { ShopApplication.class, BrokenVariants.EnvelopeFilter.class })
	static class EnvelopeFilter extends DegradationContractTests {

	}

	@OnlyInTestKit
	@WebMvcTest(properties = ShopApplication.MANIFEST)
	@ContextConfiguration(classes = { ShopApplication.class, BrokenVariants.FeaturedReviewsController.class })
	static class RouteCatchingACoreHandler extends DegradationContractTests {

	}

	@OnlyInTestKit
	@SpringBootTest(classes = ShopApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = "degradation.manifest=classpath:contract/typo.yaml")
	static class MistypedRoute extends DegradationContractTests {

	}

}
