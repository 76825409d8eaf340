package dev.degradation.sample;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.test.AutoConfigureDegradation;
import dev.degradation.test.DegradationTestClock;

import static dev.degradation.sample.ShopClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The path from a dependency to what it sheds, and back after the manifest's 90 s of hysteresis,
 * without waiting for them: the test forces the dependency and moves the engine's clock.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureDegradation
class HysteresisTests {

	/** The sample manifest's {@code hysteresis_seconds}, not overridden here. */
	private static final Duration HYSTERESIS = Duration.ofSeconds(90);

	@LocalServerPort
	private int port;

	@Autowired
	private DegradationEngine engine;

	@Autowired
	private DegradationTestClock clock;

	private ShopClient shop;

	@BeforeEach
	void connect() {
		this.shop = new ShopClient(this.port);
	}

	@Test
	void aFailedDependencyShedsItsRoutesUntilTheHysteresisHasPassedSinceItCameBack() {
		this.engine.forceDependency("recommendations-api", DependencyState.FAILED);
		assertShed("dependency:recommendations-api");
		assertThat(isDegraded(this.shop.get("/api/personalization"))).as("a route it does not require").isFalse();
		this.engine.releaseDependency("recommendations-api");
		assertThat(this.engine.dependency("recommendations-api").state()).isNotEqualTo(DependencyState.FAILED);
		assertThat(this.engine.state().demands().get("dependencies").reason())
			.startsWith("recommendations-api recovered, held until");
		assertShed("dependency:recommendations-api");
		this.clock.advance(HYSTERESIS);
		HttpResponse<String> live = this.shop.get("/api/recommendations");
		assertThat(isDegraded(live)).isFalse();
		assertThat(json(live).get("source").asString()).isEqualTo("live");
	}

	@Test
	void aForcedDependencyDoesNotOutliveItsTest() {
		assertThat(this.engine.state().shedsAnything()).isFalse();
		assertThat(this.engine.dependency("recommendations-api").forced()).isFalse();
	}

	private void assertShed(String reason) {
		HttpResponse<String> shed = this.shop.get("/api/recommendations");
		assertThat(shed.headers().firstValue("X-Degradation-Reason")).hasValue(reason);
		assertThat(json(shed)).isEqualTo(json("{\"items\": [], \"source\": \"degraded\"}"));
	}

	private static boolean isDegraded(HttpResponse<String> response) {
		return response.headers().firstValue("X-Degraded").isPresent();
	}

}
