package dev.degradation.integration;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.monitor.probing.DependencyProbing;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.HealthCheck;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.testapp.FaultyDependency;
import dev.degradation.testapp.FaultyDependency.Mode;
import dev.degradation.testapp.ProbeRecorder;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shed level following real HTTP dependencies on loopback ports that refuse connections,
 * hang, answer too slowly or fail, and then recover: the routes that require the faulty dependency
 * degrade within the bound the manifest implies and come back after the hysteresis, while the
 * other tier and the core routes stay live.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "degradation.manifest=classpath:manifests/monitored.yaml")
@Import(DependencyFaultIntegrationTests.Recorder.class)
class DependencyFaultIntegrationTests {

	private static final FaultyDependency recommendations = FaultyDependency.start("recommendations-api");

	private static final FaultyDependency analytics = FaultyDependency.start("analytics-collector");

	/**
	 * Allowance on top of every computed bound for scheduling and HTTP on a busy two-core machine.
	 */
	private static final Duration ALLOWANCE = Duration.ofMillis(1500);

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	ProbeRecorder probes;

	@Autowired
	DependencyProbing probing;

	@DynamicPropertySource
	static void dependencies(DynamicPropertyRegistry registry) {
		registry.add("test.recommendations.url", recommendations::healthUrl);
		registry.add("test.analytics.url", analytics::healthUrl);
	}

	@AfterAll
	static void stopDependencies() {
		recommendations.close();
		analytics.close();
	}

	@BeforeEach
	void everythingHealthyAndLive() {
		recommendations.set(Mode.HEALTHY);
		analytics.set(Mode.HEALTHY);
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(this.engine.dependency("recommendations-api").state()).isEqualTo(DependencyState.HEALTHY);
			assertThat(this.engine.dependency("analytics-collector").state()).isEqualTo(DependencyState.HEALTHY);
			assertThat(this.engine.state().level()).isZero();
		});
	}

	@ParameterizedTest
	@EnumSource(value = Mode.class, names = { "REFUSING", "HANGING", "SLOW", "FAILING" })
	void routesRequiringAFaultyDependencyDegradeWithinTheBoundAndComeBackAfterTheHysteresis(Mode fault)
			throws IOException {
		HealthCheck check = this.engine.manifest().dependency("recommendations-api").orElseThrow().healthCheck();
		recommendations.setSlowness(check.timeout().multipliedBy(3));
		Instant faulted = Instant.now();
		recommendations.set(fault);

		Duration degradeBound = timeToFail(check).plus(ALLOWANCE);
		await().atMost(degradeBound).pollInterval(Duration.ofMillis(20)).until(() -> recommendationsDegraded());
		Duration toDegrade = Duration.between(faulted, Instant.now());
		assertThat(this.engine.dependency("recommendations-api").state()).isEqualTo(DependencyState.FAILED);
		// Only the routes that require it are shed: the level stays 0 and no tier is shed whole.
		assertThat(this.engine.state().level()).isZero();
		assertThat(this.engine.state().shedTiers()).isEmpty();
		assertThat(http().send("GET", "/api/recommendations").header("X-Degradation-Reason"))
			.isEqualTo("dependency:recommendations-api");
		assertThat(this.engine.dependency("recommendations-api").lastProbe().outcome())
			.isEqualTo(expectedOutcome(fault));

		Response track = http().send("POST", "/api/analytics/track");
		assertThat(track.degraded()).isFalse();
		assertThat(track.body()).contains("\"handler\":\"track\"");
		Response products = http().send("GET", "/api/products");
		assertThat(products.status()).isEqualTo(200);
		assertThat(products.header("X-Degradation-Level")).isEqualTo("0");

		Instant restored = Instant.now();
		recommendations.set(Mode.HEALTHY);
		Duration hysteresis = this.engine.manifest().defaults().hysteresis();
		Duration recoverBound = check.window().plus(period(check).multipliedBy(2)).plus(hysteresis).plus(ALLOWANCE);
		await().atMost(recoverBound).pollInterval(Duration.ofMillis(20)).until(() -> !recommendationsDegraded());
		Duration toRecover = Duration.between(restored, Instant.now());
		assertThat(this.engine.state().shedsAnything()).isFalse();
		assertThat(toRecover).as("%s: degraded after %d ms, live again after the fix", fault, toDegrade.toMillis())
			.isLessThan(recoverBound);
	}

	@Test
	void aHangingDependencyDoesNotSlowTheProbesOfAHealthyOne() {
		HealthCheck check = this.engine.manifest().dependency("analytics-collector").orElseThrow().healthCheck();
		recommendations.set(Mode.HANGING);
		Instant hangStarted = Instant.now();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.engine.dependency("recommendations-api").state() == DependencyState.FAILED);
		Instant hangObserved = Instant.now();
		List<ProbeResult> analyticsProbes = this.probes.results("analytics-collector")
			.stream()
			.filter((result) -> result.at().isAfter(hangStarted) && result.at().isBefore(hangObserved))
			.toList();
		// A result's time is when the probe finished: only a probe that started after the switch
		// met the hanging dependency (one that started just before it may finish after it, healthy).
		List<ProbeResult> hangingProbes = this.probes.results("recommendations-api")
			.stream()
			.filter((result) -> result.at().minus(result.latency()).isAfter(hangStarted))
			.toList();
		assertThat(hangingProbes).isNotEmpty()
			.allSatisfy((result) -> assertThat(result.outcome()).isEqualTo(ProbeResult.TIMEOUT));
		// While the other dependency's probes each take the full timeout, these keep their own pace:
		// quick, and never further apart than the interval plus scheduling noise.
		assertThat(analyticsProbes).hasSizeGreaterThanOrEqualTo(3)
			.allSatisfy((result) -> assertThat(result.latency()).isLessThan(check.timeout()));
		Duration largestGap = Duration.ZERO;
		for (int i = 1; i < analyticsProbes.size(); i++) {
			Duration gap = Duration.between(analyticsProbes.get(i - 1).at(), analyticsProbes.get(i).at());
			largestGap = (gap.compareTo(largestGap) > 0) ? gap : largestGap;
		}
		assertThat(largestGap).as("largest gap between %d analytics probes", analyticsProbes.size())
			.isLessThan(check.interval().plus(Duration.ofMillis(250)));
		// The hanging dependency's probes were cut at their timeout, not held by it.
		HealthCheck hanging = this.engine.manifest().dependency("recommendations-api").orElseThrow().healthCheck();
		assertThat(hangingProbes).allSatisfy(
				(result) -> assertThat(result.latency()).isLessThan(hanging.timeout().plus(ALLOWANCE)));
	}

	@Test
	void probeThreadsAreBoundedByTheNumberOfDependencies() {
		recommendations.set(Mode.HANGING);
		analytics.set(Mode.HANGING);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.engine.dependencies().stream().allMatch((status) -> status.state() == DependencyState.FAILED));
		String prefix = this.probing.threadNamePrefix();
		long probeThreads = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith(prefix))
			.count();
		// One per dependency, plus one that runs the deadlines that abort overrunning probes.
		assertThat(probeThreads).isEqualTo(this.engine.manifest().dependencies().size() + 1);
	}

	private boolean recommendationsDegraded() throws IOException {
		Response response = http().send("GET", "/api/recommendations");
		return response.degraded() && response.body().equals("{\"items\":[],\"source\":\"degraded\"}");
	}

	/**
	 * The longest a healthy dependency with a full window takes to count as failed once every
	 * probe fails: the window holds at most {@code window / interval + 1} results, so it takes
	 * {@code ceil(failure_threshold * that)} failed probes, each at most one period apart, plus one
	 * period for the probe in flight when the fault began.
	 */
	private static Duration timeToFail(HealthCheck check) {
		long capacity = check.window().toMillis() / check.interval().toMillis() + 1;
		long failuresNeeded = (long) Math.ceil(check.failureThreshold() * capacity);
		return period(check).multipliedBy(failuresNeeded + 1);
	}

	/**
	 * The longest time between the starts of two probes of one dependency: the interval after a
	 * probe that took its whole timeout.
	 */
	private static Duration period(HealthCheck check) {
		return check.interval().plus(check.timeout());
	}

	private static String expectedOutcome(Mode fault) {
		return switch (fault) {
			case REFUSING -> ProbeResult.REFUSED;
			case HANGING, SLOW -> ProbeResult.TIMEOUT;
			case FAILING -> "http_5xx";
			case HEALTHY -> ProbeResult.OK;
			case NOT_FOUND -> ProbeResult.NOT_FOUND;
		};
	}

	private RawHttp http() {
		return new RawHttp(this.port);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Recorder {

		@Bean
		ProbeRecorder probeRecorder() {
			return new ProbeRecorder();
		}

	}

}
