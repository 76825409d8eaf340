package dev.degradation.actuate;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
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
import static org.awaitility.Awaitility.await;

/**
 * On a real server: a tier switched off by a property at startup, and tiers switched through the
 * Actuator with a time to live that ends by itself; misspelt names and hostile times to live are
 * refused.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"degradation.switches.enhanced=off", "management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class SwitchIntegrationTests {

	private static final String BEST_EFFORT = "/actuator/degradation/switches/best-effort";

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	MeterRegistry meters;

	@AfterEach
	void reset() {
		this.engine.reset();
	}

	@Test
	void aTierSwitchedOffByPropertyIsShedWhateverTheLevelAndSaysSo() throws Exception {
		Response shed = http().send("GET", "/api/recommendations");
		assertThat(shed.degraded()).isTrue();
		assertThat(shed.header("X-Degradation-Reason")).isEqualTo("switch:enhanced");
		assertThat(shed.header("X-Degradation-Level")).isEqualTo("0");
		assertThat(http().send("POST", "/api/analytics/track").degraded()).isFalse();
		assertThat(this.meters.get("degradation.fallbacks")
			.tag("route", "/api/recommendations")
			.tag("cause", "switch")
			.functionCounter()
			.count()).isPositive();
		JsonNode body = actuator().get("/actuator/degradation").json();
		assertThat(body.get("switches").get("enhanced").asString()).isEqualTo("OFF");
		assertThat(body.get("switches").get("best-effort").asString()).isEqualTo("ON");
		assertThat(body.get("signals").get("switches").get("reason").asString())
			.isEqualTo("switched off: enhanced (configured)");
	}

	@Test
	void theEndpointShowsATierSwitchedOffAsShedThoughTheLevelStaysZero() throws Exception {
		JsonNode body = actuator().get("/actuator/degradation").json();
		assertThat(body.get("level").asInt()).isZero();
		assertThat(body.get("shedTiers")).extracting(JsonNode::asString).containsExactly("enhanced");
		assertThat(body.get("tiers")).filteredOn((tier) -> tier.get("name").asString().equals("enhanced"))
			.singleElement()
			.satisfies((tier) -> {
				assertThat(tier.get("shed").asBoolean()).isTrue();
				assertThat(tier.get("routes")).allSatisfy((route) -> assertThat(route.get("shed").asBoolean()).isTrue());
			});
		assertThat(body.get("tiers")).filteredOn((tier) -> tier.get("name").asString().equals("best-effort"))
			.singleElement()
			.satisfies((tier) -> assertThat(tier.get("shed").asBoolean()).isFalse());
	}

	@Test
	void aSwitchWithATimeToLiveEndsByItself() throws Exception {
		Answer answer = actuator().post(BEST_EFFORT, "{\"state\": \"off\", \"ttl\": \"2s\"}");
		assertThat(answer.status()).isEqualTo(200);
		JsonNode override = answer.json().get("overrides").get(0);
		assertThat(override.get("target").asString()).isEqualTo("switches/best-effort");
		assertThat(override.get("state").asString()).isEqualTo("off");
		assertThat(override.get("by").asString()).isEqualTo("anonymous");
		assertThat(override.get("until").asString()).isNotEmpty();
		assertThat(http().send("POST", "/api/analytics/track").header("X-Degradation-Reason"))
			.isEqualTo("switch:best-effort");
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> !http().send("POST", "/api/analytics/track").degraded());
		assertThat(actuator().get("/actuator/degradation").json().get("overrides")).isEmpty();
	}

	@Test
	void theOverridesGaugeCountsWhatOperatorsSetAtRunTimeByKind() throws Exception {
		assertThat(overrides("switch")).isZero();
		assertThat(overrides("simulation")).isZero();
		assertThat(overrides("dependency")).isZero();
		actuator().post(BEST_EFFORT, "{\"state\": \"off\", \"ttl\": \"15m\"}");
		actuator().post("/actuator/degradation/switches/enhanced", "{\"state\": \"on\"}");
		actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		actuator().post("/actuator/degradation/dependencies/recommendations-api", "{\"state\": \"down\"}");
		assertThat(overrides("switch")).isEqualTo(2.0);
		assertThat(overrides("simulation")).isEqualTo(1.0);
		assertThat(overrides("dependency")).isEqualTo(1.0);
		actuator().delete(BEST_EFFORT);
		actuator().delete("/actuator/degradation/dependencies/recommendations-api");
		assertThat(overrides("switch")).isEqualTo(1.0);
		assertThat(overrides("dependency")).isZero();
	}

	private double overrides(String kind) {
		return this.meters.get("degradation.overrides").tag("kind", kind).gauge().value();
	}

	@Test
	void anOverrideSwitchesAConfiguredTierOnUntilRemoved() throws Exception {
		assertThat(actuator().post("/actuator/degradation/switches/enhanced", "{\"state\": \"on\"}").status())
			.isEqualTo(200);
		assertThat(http().send("GET", "/api/recommendations").degraded()).isFalse();
		assertThat(actuator().delete("/actuator/degradation/switches/enhanced").status()).isEqualTo(200);
		assertThat(http().send("GET", "/api/recommendations").header("X-Degradation-Reason"))
			.isEqualTo("switch:enhanced");
	}

	@Test
	void aMisspeltSwitchIsRefusedWithTheKnownOnes() throws Exception {
		Answer answer = actuator().post("/actuator/degradation/switches/best-efort", "{\"state\": \"off\"}");
		assertThat(answer.status()).isEqualTo(404);
		assertThat(answer.json().get("message").asString())
			.isEqualTo("No tier or named route called 'best-efort'; the switches are: best-effort, enhanced");
		assertThat(actuator().post("/actuator/degradation/toggles/best-effort", "{\"state\": \"off\"}").status())
			.isEqualTo(404);
		assertThat(this.engine.state().shedCause(0)).isNull();
	}

	@Test
	void aHostileOrUnreadableTimeToLiveIsRefusedAndChangesNothing() throws Exception {
		Answer century = actuator().post(BEST_EFFORT, "{\"state\": \"off\", \"ttl\": \"36500d\"}");
		assertThat(century.status()).isEqualTo(400);
		assertThat(century.json().get("message").asString())
			.isEqualTo("'ttl' must be at least 1s and at most 1d ('degradation.overrides.max-ttl'), but was '36500d'");
		assertThat(actuator().post(BEST_EFFORT, "{\"state\": \"off\", \"ttl\": \"soon\"}").status()).isEqualTo(400);
		assertThat(actuator().post(BEST_EFFORT, "{\"state\": \"off\", \"ttl\": \"-5m\"}").status()).isEqualTo(400);
		assertThat(actuator().post(BEST_EFFORT, "{\"state\": \"sideways\"}").status()).isEqualTo(400);
		Answer simulation = actuator().post("/actuator/degradation",
				"{\"enabled\": true, \"level\": 1, \"ttl\": \"9999999999999999999s\"}");
		assertThat(simulation.status()).isEqualTo(400);
		assertThat(this.engine.state().shedCause(0)).isNull();
		assertThat(this.engine.state().simulation().enabled()).isFalse();
	}

	@Test
	void aStateIsTakenOnlyAsDocumentedAndAnyOtherFormIsRefusedWithWhatIsAccepted() throws Exception {
		for (String state : new String[] { "OFF", " off ", "Off", "off\\t", "\\u006fff ", "0", "false", "" }) {
			Answer refused = actuator().post(BEST_EFFORT, "{\"state\": \"" + state + "\"}");
			assertThat(refused.status()).as(state).isEqualTo(400);
			assertThat(refused.json().get("message").asString()).as(state).startsWith("'state' must be 'off' or 'on'");
		}
		Answer forced = actuator().post("/actuator/degradation/dependencies/recommendations-api",
				"{\"state\": \"DOWN\"}");
		assertThat(forced.status()).isEqualTo(400);
		assertThat(forced.json().get("message").asString()).startsWith("'state' must be 'down' or 'up'");
		assertThat(this.engine.state().shedCause(0)).isNull();
		assertThat(actuator().get("/actuator/degradation").json().get("overrides")).isEmpty();
		assertThat(actuator().post(BEST_EFFORT, "{\"state\": \"off\"}").status()).isEqualTo(200);
	}

	@Test
	void simulationWithATimeToLiveEndsByItself() throws Exception {
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 1, \"ttl\": \"2s\"}");
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.json().get("overrides").get(0).get("target").asString()).isEqualTo("simulation");
		assertThat(http().send("POST", "/api/analytics/track").header("X-Degradation-Reason")).isEqualTo("simulation");
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> !this.engine.state().simulation().enabled());
		assertThat(http().send("POST", "/api/analytics/track").degraded()).isFalse();
	}

	private RawHttp http() {
		return new RawHttp(this.port);
	}

	private JsonHttp actuator() {
		return new JsonHttp(this.port);
	}

}
