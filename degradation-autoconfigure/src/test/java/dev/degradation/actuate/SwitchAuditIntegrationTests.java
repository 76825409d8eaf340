package dev.degradation.actuate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.OperatedShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under Spring Security, the Actuator's writes are an operator's: every override is logged with
 * the authenticated principal, and a caller without the role changes nothing.
 */
@SpringBootTest(classes = OperatedShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
@ExtendWith(OutputCaptureExtension.class)
class SwitchAuditIntegrationTests {

	private static final String BEST_EFFORT = "/actuator/degradation/switches/best-effort";

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void reset() {
		this.engine.reset();
	}

	@Test
	void everyOverrideIsLoggedWithThePrincipalAndItsTimeToLive(CapturedOutput output) throws Exception {
		JsonHttp operator = new JsonHttp(this.port).as("oncall", "pager");
		JsonHttp.Answer answer = operator.post(BEST_EFFORT, "{\"state\": \"off\", \"ttl\": \"15m\"}");
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.json().get("overrides").get(0).get("by").asString()).isEqualTo("oncall");
		assertThat(output.getOut()).contains("Switch 'best-effort' off by oncall for 15m (until ");
		operator.post("/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		assertThat(output.getOut()).contains("Simulation at level 2 by oncall until removed");
		operator.delete(BEST_EFFORT);
		assertThat(output.getOut()).contains("Switch 'best-effort' override removed by oncall; configured: on");
	}

	@Test
	void aForcedDependencyIsListedAmongTheOverridesWithWhoForcedItAndWhen() throws Exception {
		JsonHttp operator = new JsonHttp(this.port).as("oncall", "pager");
		String path = "/actuator/degradation/dependencies/recommendations-api";
		java.time.Instant before = java.time.Instant.now();
		JsonHttp.Answer answer = operator.post(path, "{\"state\": \"down\"}");
		assertThat(answer.status()).isEqualTo(200);
		tools.jackson.databind.JsonNode override = answer.json().get("overrides").get(0);
		assertThat(override.get("target").asString()).isEqualTo("dependencies/recommendations-api");
		assertThat(override.get("state").asString()).isEqualTo("failed");
		assertThat(override.get("by").asString()).isEqualTo("oncall");
		assertThat(java.time.Instant.parse(override.get("at").asString())).isAfterOrEqualTo(before.minusSeconds(1));
		assertThat(override.hasNonNull("until")).as("holds until released").isFalse();
		operator.delete(path);
		assertThat(operator.get("/actuator/degradation").json().get("overrides")).isEmpty();
	}

	@Test
	void aCallerWithoutTheOperatorRoleChangesNothing() throws Exception {
		assertThat(new JsonHttp(this.port).post(BEST_EFFORT, "{\"state\": \"off\"}").status()).isEqualTo(401);
		assertThat(new JsonHttp(this.port).as("shopper", "secret").post(BEST_EFFORT, "{\"state\": \"off\"}").status())
			.isEqualTo(403);
		assertThat(this.engine.state().shedsAnything()).isFalse();
		assertThat(new JsonHttp(this.port).get("/actuator/degradation").status()).isEqualTo(200);
	}

}
