package dev.degradation.actuate;

import org.junit.jupiter.api.Test;

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
 * Without {@code management.endpoint.degradation.access=unrestricted} the endpoint is exposed
 * but read-only: nobody can shed the service's features through it.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation" })
class DegradationEndpointReadOnlyIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Test
	void postWithoutTheAccessGrantDoesNotChangeTheLevel() throws Exception {
		JsonHttp actuator = new JsonHttp(this.port);
		Answer answer = actuator.post("/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		assertThat(answer.status()).isEqualTo(405);
		assertThat(answer.json().get("message").asString()).startsWith("The degradation endpoint is read-only")
			.contains("'management.endpoint.degradation.access=unrestricted'");
		assertThat(this.engine.state().level()).isZero();
		assertThat(this.engine.state().simulation().enabled()).isFalse();
		assertThat(actuator.get("/actuator/degradation").json().get("level").asInt()).isZero();
		assertThat(new RawHttp(this.port).send("GET", "/api/recommendations").degraded()).isFalse();
	}

	@Test
	void forcingADependencyWithoutTheAccessGrantChangesNothing() throws Exception {
		JsonHttp actuator = new JsonHttp(this.port);
		String path = "/actuator/degradation/dependencies/recommendations-api";
		assertThat(actuator.post(path, "{\"state\": \"down\"}").status()).isBetween(400, 499);
		assertThat(actuator.delete(path).status()).isBetween(400, 499);
		assertThat(this.engine.dependency("recommendations-api").forced()).isFalse();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void readWorksWithoutTheAccessGrant() throws Exception {
		Answer answer = new JsonHttp(this.port).get("/actuator/degradation");
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.json().get("level").asInt()).isZero();
	}

}
