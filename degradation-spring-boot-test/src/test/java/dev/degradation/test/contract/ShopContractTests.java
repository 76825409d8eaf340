package dev.degradation.test.contract;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.Events;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.ContextConfiguration;

import dev.degradation.test.OnlyInTestKit;
import dev.degradation.test.TestKit;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract of a shop that degrades as its manifest declares: one test per route and level
 * and one per core handler, all passing, against a running server and with MockMvc.
 */
class ShopContractTests {

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
			"handlers not in the manifest, at level 2 > GET /api/products/{id} is never degraded",
			"handlers not in the manifest, at level 2 > GET /error is never degraded");

	@Test
	void everyRouteAtEveryLevelAndEveryCoreHandlerPassesAgainstTheRunningServer() {
		Events events = TestKit.run(ServerContract.class);
		assertThat(TestKit.failures(events)).isEmpty();
		assertThat(TestKit.names(events)).containsExactlyElementsOf(TESTS);
	}

	@Test
	void everyRouteAtEveryLevelAndEveryCoreHandlerPassesWithMockMvcInAWebMvcTest() {
		Events events = TestKit.run(MockMvcContract.class);
		assertThat(TestKit.failures(events)).isEmpty();
		assertThat(TestKit.names(events)).containsExactlyElementsOf(TESTS);
	}

	@OnlyInTestKit
	@SpringBootTest(classes = ShopApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = ShopApplication.MANIFEST)
	static class ServerContract extends DegradationContractTests {

	}

	@OnlyInTestKit
	@WebMvcTest(properties = ShopApplication.MANIFEST)
	@ContextConfiguration(classes = ShopApplication.class)
	static class MockMvcContract extends DegradationContractTests {

	}

}
