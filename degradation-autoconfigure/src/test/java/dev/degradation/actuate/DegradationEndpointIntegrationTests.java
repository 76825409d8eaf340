package dev.degradation.actuate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.JsonHttp.Answer;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code degradation} endpoint over HTTP, with write access granted as CI would grant it.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class DegradationEndpointIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void stopSimulation() {
		this.engine.stopSimulation();
	}

	@Test
	void readShowsLevelSimulationShedTiersAndTiersWithTheirRoutes() throws Exception {
		JsonNode body = actuator().get("/actuator/degradation").json();
		assertThat(body.get("level").asInt()).isZero();
		assertThat(body.get("simulation").get("enabled").asBoolean()).isFalse();
		assertThat(body.get("shedTiers")).isEmpty();
		JsonNode tiers = body.get("tiers");
		assertThat(tiers).hasSize(2);
		assertThat(tiers.get(0).get("name").asString()).isEqualTo("best-effort");
		assertThat(tiers.get(0).get("priority").asInt()).isEqualTo(1);
		JsonNode route = tiers.get(0).get("routes").get(0);
		assertThat(route.get("method").asString()).isEqualTo("POST");
		assertThat(route.get("path").asString()).isEqualTo("/api/analytics/track");
		assertThat(route.get("fallback").asString()).isEqualTo("drop");
		assertThat(route.get("requires").get(0).asString()).isEqualTo("analytics-collector");
		JsonNode dependency = body.get("dependencies").get("recommendations-api");
		assertThat(dependency.get("state").asString()).isEqualTo("UNKNOWN");
		assertThat(dependency.get("forced").asBoolean()).isFalse();
		assertThat(dependency.get("samples").asInt()).isZero();
		assertThat(dependency.get("healthUrl").asString()).isEqualTo("http://127.0.0.1:9/recommendations/healthz");
	}

	@Test
	void postEnablesSimulationAtALevelAndTheFilterFollows() throws Exception {
		// The context is cached and shared: count from what earlier tests served.
		long servedBefore = this.engine.fallbackCounts().count(2);
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		assertThat(answer.status()).isEqualTo(200);
		JsonNode body = answer.json();
		assertThat(body.get("level").asInt()).isEqualTo(2);
		assertThat(body.get("simulation").get("enabled").asBoolean()).isTrue();
		assertThat(body.get("simulation").get("level").asInt()).isEqualTo(2);
		assertThat(body.get("shedTiers").toString()).isEqualTo("[\"best-effort\",\"enhanced\"]");
		assertThat(new RawHttp(this.port).send("GET", "/api/recommendations").degraded()).isTrue();
		JsonNode read = actuator().get("/actuator/degradation").json();
		assertThat(read.get("tiers").get(1).get("shed").asBoolean()).isTrue();
		assertThat(read.get("tiers").get(1).get("routes").get(0).get("fallbacksServed").asLong())
			.isEqualTo(servedBefore + 1);
	}

	@Test
	void postDisablingSimulationRestoresTheComputedLevel() throws Exception {
		actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": false}");
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.json().get("level").asInt()).isZero();
		assertThat(new RawHttp(this.port).send("POST", "/api/analytics/track").degraded()).isFalse();
	}

	@Test
	void levelAboveTheHighestPriorityIsABadRequestAndChangesNothing() throws Exception {
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 3}");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.body()).contains("Shed level 3 is out of range");
		assertThat(this.engine.state().level()).isZero();
		assertThat(this.engine.state().simulation().enabled()).isFalse();
	}

	@Test
	void negativeLevelIsABadRequest() throws Exception {
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": -1}");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void enablingWithoutALevelIsABadRequest() throws Exception {
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": true}");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.body()).contains("'level' is required");
		assertThat(this.engine.state().simulation().enabled()).isFalse();
	}

	@Test
	void aLevelThatIsNotANumberIsABadRequest() throws Exception {
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": \"high\"}");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(this.engine.state().level()).isZero();
	}

	private JsonHttp actuator() {
		return new JsonHttp(this.port);
	}

}
