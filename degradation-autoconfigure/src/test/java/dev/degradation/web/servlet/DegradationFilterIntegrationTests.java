package dev.degradation.web.servlet;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.web.DegradationHeaders;
import dev.degradation.web.RouteTable;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter on a real embedded Tomcat: fallbacks by tier, the headers that mark them, and the
 * requests it must never answer.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=health,degradation" })
class DegradationFilterIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void stopSimulation() {
		this.engine.stopSimulation();
	}

	@Test
	void whenNothingIsShedEveryRouteAnswersLiveWithTheLevelHeader() throws IOException {
		for (String target : List.of("/api/recommendations", "/api/ab/assign", "/api/products")) {
			Response response = http().send("GET", target);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.degraded()).isFalse();
			assertThat(response.header("X-Degradation-Level")).isEqualTo("0");
		}
		assertThat(http().send("POST", "/api/analytics/track").body()).contains("\"handler\":\"track\"");
	}

	@Test
	void dropFallbackAnswers204WithNoBodyAndTheDegradedHeaders() throws IOException {
		this.engine.simulate(1);
		Response response = http().send("POST", "/api/analytics/track");
		assertThat(response.status()).isEqualTo(204);
		assertThat(response.body()).isEmpty();
		assertThat(response.header("X-Degraded")).isEqualTo("true");
		assertThat(response.header("X-Degradation-Tier")).isEqualTo("best-effort");
		assertThat(response.header("X-Degradation-Level")).isEqualTo("1");
		assertThat(response.header("Cache-Control")).isEqualTo("no-store");
	}

	@Test
	void staticFallbackAnswers200WithThePrecomputedJson() throws IOException {
		this.engine.simulate(2);
		Response response = http().send("GET", "/api/recommendations");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.header("Content-Type")).startsWith("application/json");
		assertThat(response.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
		assertThat(response.header("X-Degradation-Tier")).isEqualTo("enhanced");
		assertThat(response.header("X-Degradation-Level")).isEqualTo("2");
	}

	@Test
	void levelShedsOnlyTiersWhosePriorityIsAtMostTheLevel() throws IOException {
		this.engine.simulate(1);
		assertThat(http().send("GET", "/api/ab/assign").degraded()).isTrue();
		Response enhanced = http().send("GET", "/api/recommendations");
		assertThat(enhanced.degraded()).isFalse();
		assertThat(enhanced.body()).contains("\"handler\":\"recommendations\"");
		assertThat(enhanced.header("X-Degradation-Level")).isEqualTo("1");
	}

	@Test
	void routesOutsideTheManifestAnswerLiveAtEveryLevel() throws IOException {
		for (int level = 0; level <= 2; level++) {
			this.engine.simulate(level);
			assertThat(http().send("GET", "/api/products").status()).isEqualTo(200);
			assertThat(http().send("GET", "/api/products/7").body()).contains("\"id\":7");
			Response order = http().send("POST", "/api/orders");
			assertThat(order.status()).isEqualTo(201);
			assertThat(order.degraded()).isFalse();
		}
	}

	@Test
	void aRouteIsMatchedByMethodAsWellAsPath() throws IOException {
		this.engine.simulate(2);
		Response post = http().send("POST", "/api/recommendations");
		assertThat(post.degraded()).isFalse();
		assertThat(post.status()).isEqualTo(405);
	}

	@Test
	void headRequestsAreDegradedLikeTheirGetRoute() throws IOException {
		this.engine.simulate(2);
		Response response = http().send("HEAD", "/api/recommendations");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.degraded()).isTrue();
		assertThat(response.body()).isEmpty();
	}

	@Test
	void patternRoutesAreDegradedForEveryMatchingPath() throws IOException {
		this.engine.simulate(2);
		Response response = http().send("GET", "/api/catalog/42/reviews");
		assertThat(response.degraded()).isTrue();
		assertThat(response.body()).isEqualTo("{\"reviews\":[],\"source\":\"degraded\"}");
	}

	@Test
	void fallbackAnswersAreCountedPerRoute() throws IOException {
		long before = this.engine.fallbackCounts().count(0);
		this.engine.simulate(1);
		http().send("POST", "/api/analytics/track");
		http().send("POST", "/api/analytics/track");
		assertThat(this.engine.fallbackCounts().count(0)).isEqualTo(before + 2);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/actuator/health", "/actuator/degradation" })
	void theActuatorAnswersWhenEveryTierIsShed(String target) throws IOException {
		this.engine.simulate(2);
		Response response = http().send("GET", target);
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.degraded()).isFalse();
	}

	@Test
	void requestsToAnotherServletAreNeverAnsweredWithAFallback() throws IOException {
		this.engine.simulate(2);
		// The legacy servlet's path info is /api/recommendations, which the manifest sheds in MVC.
		Response response = http().send("GET", "/legacy/api/recommendations");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.degraded()).isFalse();
		assertThat(response.body()).isEqualTo("legacy /api/recommendations");
	}

	private RawHttp http() {
		return new RawHttp(this.port);
	}

}
