package dev.degradation.sample;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.test.AutoConfigureDegradation;

import static dev.degradation.sample.ShopClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's walkthrough, against the real shop through the real Actuator endpoint: shed level 1
 * sheds the best-effort tier, level 2 the enhanced tier as well, the core never. Each test starts
 * with simulation off, whatever the previous test of the shared context left.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureDegradation
class DegradationWalkthroughTests {

	private static final String DEGRADED = "X-Degraded";

	private static final String TIER = "X-Degradation-Tier";

	private static final String LEVEL = "X-Degradation-Level";

	@LocalServerPort
	private int port;

	private ShopClient shop;

	@BeforeEach
	void connect() {
		this.shop = new ShopClient(this.port);
	}

	@Test
	void atLevelOneBestEffortRoutesServeTheirFallbacks() {
		this.shop.simulate(1);
		HttpResponse<String> track = this.shop.post("/api/analytics/track", "{\"name\": \"product-viewed\"}");
		assertThat(track.statusCode()).isEqualTo(204);
		assertThat(track.body()).isEmpty();
		assertDegraded(track, "best-effort", "1");
		HttpResponse<String> assign = this.shop.get("/api/ab/assign");
		assertThat(assign.statusCode()).isEqualTo(200);
		assertThat(json(assign)).isEqualTo(json("{\"variant\": \"control\", \"source\": \"degraded\"}"));
		assertDegraded(assign, "best-effort", "1");
	}

	@Test
	void atLevelOneEnhancedRoutesStayLive() {
		this.shop.simulate(1);
		HttpResponse<String> recommendations = this.shop.get("/api/recommendations");
		assertLive(recommendations, 200, "1");
		assertThat(json(recommendations).get("source").asString()).isEqualTo("live");
	}

	@Test
	void atLevelTwoEnhancedRoutesServeTheirStaticBodies() {
		this.shop.simulate(2);
		HttpResponse<String> recommendations = this.shop.get("/api/recommendations");
		assertThat(recommendations.statusCode()).isEqualTo(200);
		assertThat(json(recommendations)).isEqualTo(json("{\"items\": [], \"source\": \"degraded\"}"));
		assertDegraded(recommendations, "enhanced", "2");
		HttpResponse<String> personalization = this.shop.get("/api/personalization");
		assertThat(json(personalization)).isEqualTo(json("{\"profile\": \"default\", \"source\": \"degraded\"}"));
		assertDegraded(personalization, "enhanced", "2");
		assertDegraded(this.shop.get("/api/ab/assign"), "best-effort", "2");
	}

	@ParameterizedTest(name = "level {0}")
	@ValueSource(ints = { 0, 1, 2 })
	void coreRoutesAnswerLiveAtEveryLevel(int level) {
		this.shop.simulate(level);
		String expectedLevel = Integer.toString(level);
		HttpResponse<String> products = this.shop.get("/api/products");
		assertLive(products, 200, expectedLevel);
		assertThat(json(products).size()).isPositive();
		assertLive(this.shop.get("/api/products/p-1"), 200, expectedLevel);
		HttpResponse<String> order = this.shop.post("/api/orders",
				"{\"lines\": [{\"productId\": \"p-1\", \"quantity\": 1}]}");
		assertLive(order, 201, expectedLevel);
		assertThat(json(order).get("id").asString()).isNotBlank();
	}

	@Test
	void disablingSimulationMakesEveryRouteLiveAgain() {
		this.shop.simulate(2);
		this.shop.stopSimulation();
		assertLive(this.shop.post("/api/analytics/track", "{\"name\": \"product-viewed\"}"), 202, "0");
		for (String path : List.of("/api/ab/assign", "/api/recommendations", "/api/personalization")) {
			HttpResponse<String> response = this.shop.get(path);
			assertLive(response, 200, "0");
			assertThat(json(response).get("source").asString()).as(path).isEqualTo("live");
		}
	}

	@Test
	void endpointShowsLevelSimulationAndShedTiers() {
		this.shop.simulate(1);
		HttpResponse<String> response = this.shop.get("/actuator/degradation");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = json(response);
		assertThat(body.get("level").asInt()).isEqualTo(1);
		assertThat(body.get("simulation")).isEqualTo(json("{\"enabled\": true, \"level\": 1}"));
		assertThat(body.get("shedTiers")).isEqualTo(json("[\"best-effort\"]"));
	}

	@Test
	void levelAboveTheHighestTierPriorityIsRejected() {
		this.shop.simulate(1);
		HttpResponse<String> response = this.shop.post("/actuator/degradation", "{\"enabled\": true, \"level\": 3}");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(this.shop.get("/actuator/degradation")).get("level").asInt()).isEqualTo(1);
	}

	private static void assertDegraded(HttpResponse<String> response, String tier, String level) {
		assertThat(response.headers().firstValue(DEGRADED)).hasValue("true");
		assertThat(response.headers().firstValue(TIER)).hasValue(tier);
		assertThat(response.headers().firstValue(LEVEL)).hasValue(level);
	}

	private static void assertLive(HttpResponse<String> response, int status, String level) {
		assertThat(response.statusCode()).as(response.uri() + ": " + response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue(DEGRADED)).isEmpty();
		assertThat(response.headers().firstValue(TIER)).isEmpty();
		assertThat(response.headers().firstValue(LEVEL)).hasValue(level);
	}

}
