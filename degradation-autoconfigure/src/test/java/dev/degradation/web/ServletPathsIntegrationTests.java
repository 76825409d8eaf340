package dev.degradation.web;

import java.io.IOException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With a context path and Spring MVC under its own servlet path, the manifest's paths are
 * relative to MVC, exactly as the controllers' mappings are.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"server.servlet.context-path=/shop", "spring.mvc.servlet.path=/mvc" })
class ServletPathsIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void stopSimulation() {
		this.engine.stopSimulation();
	}

	@Test
	void aShedRouteUnderTheContextAndServletPathsIsDegraded() throws IOException {
		RawHttp http = new RawHttp(this.port);
		Response live = http.send("GET", "/shop/mvc/api/recommendations");
		assertThat(live.body()).contains("\"handler\":\"recommendations\"");
		this.engine.simulate(2);
		Response shed = http.send("GET", "/shop/mvc/api/recommendations");
		assertThat(shed.degraded()).isTrue();
		assertThat(shed.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
	}

	@Test
	void aPathOutsideTheServletPathIsNotTheManifestsRoute() throws IOException {
		this.engine.simulate(2);
		Response response = new RawHttp(this.port).send("GET", "/shop/api/recommendations");
		assertThat(response.degraded()).isFalse();
		assertThat(response.status()).isEqualTo(404);
	}

}
