package dev.degradation.web;

import java.time.Instant;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
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
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a real server, a dependency forced down through the Actuator sheds the routes that require it
 * and nothing else; each degraded answer says why, the endpoint says why per route, and the
 * standard HTTP metrics name a shed request by its manifest pattern.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class PreciseShedIntegrationTests {

	private static final String RECOMMENDATIONS = "/actuator/degradation/dependencies/recommendations-api";

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	MeterRegistry meters;

	@AfterEach
	void reset() throws Exception {
		assertThat(actuator().delete("/actuator/degradation").status()).isEqualTo(200);
	}

	@Test
	void aFailedDependencyShedsExactlyTheRoutesThatRequireIt() throws Exception {
		assertThat(actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}").status()).isEqualTo(200);
		for (String path : new String[] { "/api/recommendations", "/api/catalog/7/reviews",
				"/api/catalog/featured/reviews" }) {
			Response shed = http().send("GET", path);
			assertThat(shed.degraded()).as(path).isTrue();
			assertThat(shed.header("X-Degradation-Reason")).isEqualTo("dependency:recommendations-api");
			assertThat(shed.header("X-Degradation-Tier")).isEqualTo("enhanced");
			assertThat(shed.header("X-Degradation-Level")).isEqualTo("0");
		}
		Response assign = http().send("GET", "/api/ab/assign");
		assertThat(assign.degraded()).isFalse();
		assertThat(assign.body()).contains("\"handler\":\"assign\"");
		Response track = http().send("POST", "/api/analytics/track");
		assertThat(track.degraded()).isFalse();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void theEndpointSaysWhyEachRouteIsShed() throws Exception {
		actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		JsonNode body = actuator().get("/actuator/degradation").json();
		JsonNode bestEffort = body.get("tiers").get(0).get("routes");
		assertThat(bestEffort.get(0).get("shed").asBoolean()).isTrue();
		assertThat(bestEffort.get(0).get("shedReason").asString()).isEqualTo("simulation");
		JsonNode enhanced = body.get("tiers").get(1).get("routes");
		assertThat(enhanced.get(0).get("shed").asBoolean()).isTrue();
		assertThat(enhanced.get(0).get("shedReason").asString()).isEqualTo("dependency:recommendations-api");
		JsonNode signals = body.get("signals");
		assertThat(signals.get("dependencies").get("routes").asInt()).isEqualTo(3);
		assertThat(signals.get("dependencies").get("reason").asString())
			.isEqualTo("recommendations-api failed: its routes are shed");
		assertThat(signals.get("simulation").get("level").asInt()).isEqualTo(1);
		assertThat(signals.get("simulation").get("exact").asBoolean()).isTrue();
	}

	@Test
	void theEndpointSaysWhatHoldsAShedRouteAndWhenItComesBack() throws Exception {
		Instant before = this.engine.clock().instant();
		actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		JsonNode failed = route(actuator().get("/actuator/degradation").json(), "/api/recommendations");
		assertThat(failed.hasNonNull("restoresAt")).isFalse();
		assertThat(failed.get("heldBy")).singleElement().satisfies((hold) -> {
			assertThat(hold.get("signal").asString()).isEqualTo("dependencies");
			assertThat(hold.get("rule").asString()).isEqualTo("dependency-failed");
			assertThat(hold.get("detail").asString()).contains("forced down by anonymous", "released");
		});
		actuator().delete(RECOMMENDATIONS);
		JsonNode recovered = route(actuator().get("/actuator/degradation").json(), "/api/recommendations");
		assertThat(recovered.get("shed").asBoolean()).isTrue();
		Instant restoresAt = Instant.parse(recovered.get("restoresAt").asString());
		// Held 90 s (the manifest's hysteresis_seconds) from when it began to shed, not from now.
		assertThat(restoresAt).isBetween(before.plusSeconds(90), this.engine.clock().instant().plusSeconds(90));
		assertThat(recovered.get("heldBy")).singleElement().satisfies((hold) -> {
			assertThat(hold.get("rule").asString()).isEqualTo("dependency-hysteresis");
			assertThat(hold.get("restoresAt").asString()).isEqualTo(recovered.get("restoresAt").asString());
			assertThat(hold.get("detail").asString()).contains("hysteresis_seconds (90 s");
		});
		JsonNode served = route(actuator().get("/actuator/degradation").json(), "/api/ab/assign");
		assertThat(served.get("shed").asBoolean()).isFalse();
		assertThat(served.get("heldBy")).isEmpty();
		assertThat(served.hasNonNull("restoresAt")).isFalse();
	}

	@Test
	void aShedRequestIsMeasuredUnderItsManifestPatternAndMarkedDegraded() throws Exception {
		actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		assertThat(http().send("GET", "/api/catalog/42/reviews").degraded()).isTrue();
		assertThat(http().send("GET", "/api/products").degraded()).isFalse();
		Timer shed = this.meters.find("http.server.requests")
			.tag("uri", "/api/catalog/{id}/reviews")
			.tag("degraded", "true")
			.tag("status", "200")
			.timer();
		assertThat(shed).isNotNull();
		assertThat(shed.count()).isEqualTo(1);
		assertThat(this.meters.find("http.server.requests").tag("uri", "UNKNOWN").timers()).isEmpty();
		assertThat(this.meters.find("http.server.requests").tag("uri", "/api/products").tag("degraded", "false")
			.timer()).isNotNull();
	}

	@Test
	void aWriteWithAKeyTheOperationDoesNotTakeIsRefusedAndChangesNothing() throws Exception {
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": true, \"levle\": 2}");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.json().get("message").asString())
			.isEqualTo("Unknown key 'levle'; this operation takes 'enabled', 'level', 'ttl'");
		assertThat(this.engine.state().simulation().enabled()).isFalse();
		Answer force = actuator().post(RECOMMENDATIONS, "{\"state\": \"down\", \"ttl\": \"5m\"}");
		assertThat(force.status()).isEqualTo(400);
		assertThat(this.engine.dependency("recommendations-api").forced()).isFalse();
	}

	@Test
	void deletingTheEndpointResetsTheEngine() throws Exception {
		actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		Answer reset = actuator().delete("/actuator/degradation");
		assertThat(reset.status()).isEqualTo(200);
		assertThat(reset.json().get("level").asInt()).isZero();
		assertThat(reset.json().get("simulation").get("enabled").asBoolean()).isFalse();
		assertThat(reset.json().get("dependencies").get("recommendations-api").get("forced").asBoolean()).isFalse();
		assertThat(this.engine.state().shedsAnything()).isFalse();
		assertThat(http().send("GET", "/api/recommendations").degraded()).isFalse();
	}

	private static JsonNode route(JsonNode body, String path) {
		for (JsonNode tier : body.get("tiers")) {
			for (JsonNode route : tier.get("routes")) {
				if (route.get("path").asString().equals(path)) {
					return route;
				}
			}
		}
		throw new AssertionError("No route " + path + " in " + body);
	}

	private RawHttp http() {
		return new RawHttp(this.port);
	}

	private JsonHttp actuator() {
		return new JsonHttp(this.port);
	}

}
