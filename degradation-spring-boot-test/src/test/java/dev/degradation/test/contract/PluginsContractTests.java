package dev.degradation.test.contract;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.Events;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.degradation.test.OnlyInTestKit;
import dev.degradation.test.TestKit;
import dev.degradation.test.testapp.Plugins;
import dev.degradation.test.testapp.ShoutingPlugins;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fallback kind that only a test declares ({@code notice}, with a status board's health source
 * for the dependency its route requires) is tested by the generated contract as the built-in
 * kinds are: its route passes against the running server while its writer answers what the
 * manifest declares, and fails, naming the route and the difference, when it does not.
 */
class PluginsContractTests {

	private static final String RECOMMENDATIONS = "GET /api/recommendations of tier enhanced (priority 1), "
			+ "declared at classpath:contract/plugins.yaml:16:9 (tiers.enhanced.routes[0])";

	@Test
	void aRouteOfTheApplicationsOwnKindPassesAgainstTheRunningServer() {
		Events events = TestKit.run(NoticeContract.class);
		assertThat(TestKit.failures(events)).isEmpty();
		assertThat(TestKit.names(events)).contains(
				"GET /api/recommendations (enhanced) > GET /api/recommendations at level 1: answers its notice "
						+ "fallback",
				"GET /api/recommendations (enhanced) > GET /api/recommendations at level 0: reaches the application",
				"GET /api/products/{id}/reviews (enhanced) > GET /api/products/{id}/reviews at level 1: answers its "
						+ "static fallback");
	}

	@Test
	void aWriterOfTheApplicationsOwnKindThatBreaksItsExpectationFailsItsRoute() {
		List<String> failures = TestKit.failures(TestKit.run(ShoutingNoticeContract.class));
		assertThat(failures).singleElement()
			.asString()
			.startsWith("GET /api/recommendations (enhanced) > GET /api/recommendations at level 1: answers its "
					+ "notice fallback: GET /api/recommendations at level 1 should be answered by the notice fallback "
					+ "of " + RECOMMENDATIONS + ", but its body is RECOMMENDATIONS ARE RESTING; TRY THE CATALOGUE "
					+ "instead of the manifest's notice Recommendations are resting; try the catalogue")
			.contains("expected: 200, X-Degraded: true", "Content-Type: text/plain, body Recommendations are resting");
	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, Plugins.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = Plugins.MANIFEST)
	static class NoticeContract extends DegradationContractTests {

	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, ShoutingPlugins.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = Plugins.MANIFEST)
	static class ShoutingNoticeContract extends DegradationContractTests {

	}

}
