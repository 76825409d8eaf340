package dev.degradation.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.sample.embedded.EmbeddedDependencies;
import dev.degradation.test.AutoConfigureDegradation;

import static dev.degradation.sample.ShopClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End to end through the starter, with nothing simulated: a dependency broken through the demo
 * API is seen failing by the starter's probes, the routes that require it are shed (and no other),
 * and once it is healthy again they come back after the hysteresis. The sample manifest's timings are shortened
 * by properties so that this takes seconds instead of minutes. The probes are what this test is
 * about, so it asks for them ({@code probes = true}); the engine still starts from nothing.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.health-check-interval-ms=" + DependencyFailureTests.INTERVAL_MS,
				"sample.timeout-ms=" + DependencyFailureTests.TIMEOUT_MS,
				"sample.window-seconds=" + DependencyFailureTests.WINDOW_SECONDS,
				"sample.min-samples=" + DependencyFailureTests.MIN_SAMPLES,
				"sample.hysteresis-seconds=" + DependencyFailureTests.HYSTERESIS_SECONDS })
@AutoConfigureDegradation(probes = true)
class DependencyFailureTests {

	static final long INTERVAL_MS = 200;

	static final long TIMEOUT_MS = 500;

	static final long WINDOW_SECONDS = 4;

	static final int MIN_SAMPLES = 3;

	static final long HYSTERESIS_SECONDS = 2;

	/** The sample manifest's {@code failure_threshold}, not overridden here. */
	private static final double FAILURE_THRESHOLD = 0.4;

	/** Scheduling and polling noise of a loaded two-core machine, on top of every bound. */
	private static final Duration SLACK = Duration.ofSeconds(1);

	private static final String RECOMMENDATIONS_API = "recommendations-api";

	@LocalServerPort
	private int port;

	@Autowired
	private EmbeddedDependencies dependencies;

	private ShopClient shop;

	@BeforeEach
	void connect() {
		this.shop = new ShopClient(this.port);
	}

	@AfterEach
	void makeEveryDependencyHealthy() {
		this.dependencies.healAll();
	}

	@Test
	void failingDependencyShedsItsRoutesWithinTheBoundAndTheyComeBackAfterTheHysteresis() {
		Duration interval = Duration.ofMillis(INTERVAL_MS);
		Duration timeout = Duration.ofMillis(TIMEOUT_MS);
		Duration window = Duration.ofSeconds(WINDOW_SECONDS);
		Duration hysteresis = Duration.ofSeconds(HYSTERESIS_SECONDS);
		Duration probeCycle = interval.plus(timeout);
		await("a judged, healthy recommendations-api at level 0").atMost(window.plus(probeCycle).plusSeconds(10))
			.until(() -> {
				JsonNode state = this.shop.degradation();
				JsonNode dependency = state.get("dependencies").get(RECOMMENDATIONS_API);
				return state.get("level").asInt() == 0 && dependency.get("state").asString().equals("HEALTHY")
						&& dependency.get("samples").asInt() >= MIN_SAMPLES;
			});

		// Fault to degraded answer. A probe starts at most one interval after the previous one
		// ended and ends at most one timeout later, so the k-th failing result is in at most
		// k * (interval + timeout) after the fault. Probes start at least an interval apart, so the
		// window holds at most n = window / interval + 1 results, and k = max(min_samples,
		// ceil(failure_threshold * n)) failures reach the threshold whatever else the window holds
		// (a 500 comes back at once, so all k are still in the window). The level rises on that
		// same result and the next request is shed:
		// bound = max(min_samples, ceil(failure_threshold * (window / interval + 1))) * (interval + timeout)
		long mostResults = window.toMillis() / interval.toMillis() + 1;
		long failuresNeeded = Math.max(MIN_SAMPLES, (long) Math.ceil(FAILURE_THRESHOLD * mostResults));
		Duration shedBound = probeCycle.multipliedBy(failuresNeeded);
		long faultAt = System.nanoTime();
		this.shop.switchDependency(RECOMMENDATIONS_API, "failing");
		await("the degraded answer").atMost(shedBound.plus(SLACK))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> isDegraded(this.shop.get("/api/recommendations")));
		Duration faultToShed = Duration.ofNanos(System.nanoTime() - faultAt);
		assertThat(faultToShed).isLessThanOrEqualTo(shedBound.plus(SLACK));

		HttpResponse<String> degraded = this.shop.get("/api/recommendations");
		assertThat(json(degraded)).isEqualTo(json("{\"items\": [], \"source\": \"degraded\"}"));
		assertThat(degraded.headers().firstValue("X-Degradation-Tier")).hasValue("enhanced");
		assertThat(degraded.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:recommendations-api");
		HttpResponse<String> products = this.shop.get("/api/products");
		assertThat(products.statusCode()).isEqualTo(200);
		assertThat(products.headers().firstValue("X-Degraded")).isEmpty();
		// Only the route that requires it is shed: its tier's other route and the tier below stay live.
		assertThat(isDegraded(this.shop.get("/api/personalization"))).isFalse();
		assertThat(isDegraded(this.shop.get("/api/ab/assign"))).isFalse();
		JsonNode shed = this.shop.degradation();
		assertThat(shed.get("level").asInt()).isZero();
		assertThat(shed.get("shedTiers")).isEmpty();
		assertThat(shed.get("signals").get("dependencies").get("reason").asString())
			.isEqualTo("recommendations-api failed: its routes are shed");
		JsonNode recommendations = shed.get("tiers").get(1).get("routes").get(0);
		assertThat(recommendations.get("shedReason").asString()).isEqualTo("dependency:recommendations-api");
		JsonNode failed = shed.get("dependencies").get(RECOMMENDATIONS_API);
		assertThat(failed.get("state").asString()).isEqualTo("FAILED");
		assertThat(failed.get("lastProbe").get("outcome").asString()).isEqualTo("http_5xx");

		// Recovery: the failures leave the window at most timeout + window after the switch, the
		// next probe (interval + timeout) judges the dependency healthy, and the route comes back
		// once the hysteresis since it was shed has passed, at most one evaluation (1 s) later.
		this.shop.switchDependency(RECOMMENDATIONS_API, "healthy");
		Duration recoveryBound = timeout.plus(window).plus(probeCycle).plus(hysteresis).plusSeconds(1);
		await("the live answer again").atMost(recoveryBound.plus(SLACK))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> !isDegraded(this.shop.get("/api/recommendations")));
		// Shed no earlier than the fault, so restored no earlier than the fault plus the hysteresis.
		assertThat(Duration.ofNanos(System.nanoTime() - faultAt)).isGreaterThanOrEqualTo(hysteresis);
		assertThat(this.shop.degradation().get("dependencies").get(RECOMMENDATIONS_API).get("state").asString())
			.isEqualTo("HEALTHY");
		HttpResponse<String> live = this.shop.get("/api/recommendations");
		assertThat(live.statusCode()).isEqualTo(200);
		assertThat(live.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(json(live).get("source").asString()).isEqualTo("live");
	}

	private static boolean isDegraded(HttpResponse<String> response) {
		return response.headers().firstValue("X-Degraded").isPresent();
	}

}
