package dev.degradation.web;

import java.io.IOException;
import java.util.Base64;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.SecuredShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With Spring Security in front, a shed route still demands authentication: the fallback is never
 * a way around it.
 */
@SpringBootTest(classes = SecuredShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=health,degradation" })
class SecuredShedRouteIntegrationTests {

	private static final String CREDENTIALS = "Authorization: Basic "
			+ Base64.getEncoder().encodeToString("shopper:secret".getBytes());

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void stopSimulation() {
		this.engine.stopSimulation();
	}

	@Test
	void unauthenticatedRequestToAShedRouteGets401NotTheFallback() throws IOException {
		this.engine.simulate(2);
		Response response = new RawHttp(this.port).send("GET", "/api/recommendations");
		assertThat(response.status()).isEqualTo(401);
		assertThat(response.degraded()).isFalse();
		assertThat(response.body()).doesNotContain("degraded");
	}

	@Test
	void unauthenticatedRequestToAShedDropRouteGets401Not204() throws IOException {
		this.engine.simulate(1);
		Response response = new RawHttp(this.port).send("POST", "/api/analytics/track");
		assertThat(response.status()).isEqualTo(401);
		assertThat(response.degraded()).isFalse();
	}

	@Test
	void authenticatedRequestToAShedRouteGetsTheFallback() throws IOException {
		this.engine.simulate(2);
		Response response = new RawHttp(this.port).send("GET", "/api/recommendations", CREDENTIALS);
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.degraded()).isTrue();
		assertThat(response.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
	}

}
