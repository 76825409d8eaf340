package dev.degradation.integration;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.FaultyDependency;
import dev.degradation.testapp.FaultyDependency.Mode;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a dependency that really fails sheds on a real server, probed over loopback, with each
 * value of {@code failed_dependency_sheds}: by default exactly the routes that require it; with
 * {@code tiers}, its tier and every tier below it.
 */
class ShedScopeIntegrationTests {

	private static final Duration BOUND = Duration.ofSeconds(10);

	/**
	 * The two dependencies, started once for both application contexts and stopped when the
	 * test JVM ends; each context probes them over loopback.
	 */
	abstract static class Scope {

		static final FaultyDependency recommendations = FaultyDependency.start("recommendations-api");

		static final FaultyDependency analytics = FaultyDependency.start("analytics-collector");

		@DynamicPropertySource
		static void dependencies(DynamicPropertyRegistry registry) {
			registry.add("test.recommendations.url", recommendations::healthUrl);
			registry.add("test.analytics.url", analytics::healthUrl);
		}

		@LocalServerPort
		int port;

		@Autowired
		DegradationEngine engine;

		@AfterEach
		void heal() {
			recommendations.set(Mode.HEALTHY);
			analytics.set(Mode.HEALTHY);
			await().atMost(BOUND).until(() -> !this.engine.state().shedsAnything());
		}

		void failRecommendations() {
			analytics.set(Mode.HEALTHY);
			await().atMost(BOUND)
				.until(() -> this.engine.dependency("analytics-collector").state() == DependencyState.HEALTHY);
			recommendations.set(Mode.FAILING);
			await().atMost(BOUND).pollInterval(Duration.ofMillis(20))
				.until(() -> this.engine.dependency("recommendations-api").state() == DependencyState.FAILED);
		}

		Response send(String method, String path) throws IOException {
			return new RawHttp(this.port).send(method, path);
		}

	}

	@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "degradation.manifest=classpath:manifests/scopes.yaml", "test.sheds=routes" })
	static class Routes extends Scope {

		@Test
		void aFailedDependencyShedsExactlyTheRoutesThatRequireIt() throws IOException {
			failRecommendations();
			Response shed = send("GET", "/api/recommendations");
			assertThat(shed.degraded()).isTrue();
			assertThat(shed.header("X-Degradation-Reason")).isEqualTo("dependency:recommendations-api");
			assertThat(send("GET", "/api/catalog/7/reviews").degraded()).as("same tier, not required").isFalse();
			assertThat(send("POST", "/api/analytics/track").degraded()).as("lower tier").isFalse();
			assertThat(this.engine.state().level()).isZero();
		}

	}

	@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "degradation.manifest=classpath:manifests/scopes.yaml", "test.sheds=tiers" })
	static class Tiers extends Scope {

		@Test
		void aFailedDependencyShedsItsTierAndEveryTierBelowIt() throws IOException {
			failRecommendations();
			await().atMost(BOUND).until(() -> this.engine.state().level() == 2);
			for (String[] request : new String[][] { { "GET", "/api/recommendations" },
					{ "GET", "/api/catalog/7/reviews" }, { "POST", "/api/analytics/track" } }) {
				Response shed = send(request[0], request[1]);
				assertThat(shed.degraded()).as(request[1]).isTrue();
				assertThat(shed.header("X-Degradation-Reason")).isEqualTo("dependency:recommendations-api");
				assertThat(shed.header("X-Degradation-Level")).isEqualTo("2");
			}
			assertThat(this.engine.state().shedTiers()).containsExactly("best-effort", "enhanced");
		}

	}

}
