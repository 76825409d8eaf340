package dev.degradation.actuate;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With probes switched off nothing else calls the engine, yet a dependency released after being
 * forced down must bring the level down, one tier per hysteresis.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/controls-hysteresis.yaml",
				"degradation.probes.enabled=false", "management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class HysteresisWithoutProbesIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Test
	void aReleasedDependencyBringsTheLevelDownOneTierPerHysteresisWithoutProbes() throws Exception {
		JsonHttp actuator = new JsonHttp(this.port);
		String path = "/actuator/degradation/dependencies/recommendations-api";
		assertThat(actuator.post(path, "{\"state\": \"down\"}").json().get("level").asInt()).isEqualTo(2);
		Instant released = Instant.now();
		assertThat(actuator.delete(path).json().get("level").asInt()).isEqualTo(2);
		// Two steps of 1 s each, checked by an evaluation every second: at most about 4 s.
		await().atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(50))
			.until(() -> this.engine.state().level() == 0);
		// The second step waits a whole hysteresis after the first, which comes after the release.
		assertThat(Duration.between(released, Instant.now())).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
	}

}
