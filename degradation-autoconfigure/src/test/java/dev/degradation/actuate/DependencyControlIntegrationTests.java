package dev.degradation.actuate;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Import;

import dev.degradation.event.DegradationNotifier;
import dev.degradation.event.DependencyStateChangedEvent;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.JsonHttp.Answer;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Forcing dependencies down and up through the Actuator, as CI does: the real path from a
 * dependency's state to the shed level, the health details that stay {@code UP}, the meters and
 * the events.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/controls.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=health,degradation",
				"management.endpoint.degradation.access=unrestricted",
				"management.endpoint.health.show-details=always" })
@Import(DependencyControlIntegrationTests.Events.class)
class DependencyControlIntegrationTests {

	private static final String RECOMMENDATIONS = "/actuator/degradation/dependencies/recommendations-api";

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	MeterRegistry meters;

	@Autowired
	Events events;

	@Autowired
	DegradationNotifier notifier;

	@AfterEach
	void releaseEverything() throws Exception {
		this.engine.manifest().dependencies().forEach((dependency) -> this.engine.releaseDependency(dependency.name()));
		// Events are told on the notifier's thread, in order: once a task queued now has run, every
		// event of this test has arrived.
		CompletableFuture.runAsync(() -> {
		}, this.notifier).get(5, TimeUnit.SECONDS);
		this.events.changes.clear();
	}

	@Test
	void forcingADependencyDownShedsTheTiersThatRequireItAndReleasingItRestoresThem() throws Exception {
		Answer forced = actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		assertThat(forced.status()).isEqualTo(200);
		JsonNode body = forced.json();
		assertThat(body.get("level").asInt()).isEqualTo(2);
		assertThat(body.get("reason").asString()).contains("recommendations-api failed");
		JsonNode dependency = body.get("dependencies").get("recommendations-api");
		assertThat(dependency.get("state").asString()).isEqualTo("FAILED");
		assertThat(dependency.get("computedState").asString()).isEqualTo("UNKNOWN");
		assertThat(dependency.get("forced").asBoolean()).isTrue();
		assertThat(new RawHttp(this.port).send("GET", "/api/recommendations").degraded()).isTrue();

		Answer released = actuator().delete(RECOMMENDATIONS);
		assertThat(released.status()).isEqualTo(200);
		assertThat(released.json().get("dependencies").get("recommendations-api").get("forced").asBoolean()).isFalse();
		assertThat(released.json().get("level").asInt()).isZero();
		assertThat(new RawHttp(this.port).send("GET", "/api/recommendations").degraded()).isFalse();
	}

	@Test
	void forcingADependencyUpIsShownAsForced() throws Exception {
		Answer forced = actuator().post(RECOMMENDATIONS, "{\"state\": \"up\"}");
		assertThat(forced.status()).isEqualTo(200);
		JsonNode dependency = forced.json().get("dependencies").get("recommendations-api");
		assertThat(dependency.get("state").asString()).isEqualTo("HEALTHY");
		assertThat(dependency.get("forced").asBoolean()).isTrue();
	}

	@Test
	void anUnknownDependencyIs404AndChangesNothing() throws Exception {
		Answer answer = actuator().post("/actuator/degradation/dependencies/recomendations-api",
				"{\"state\": \"down\"}");
		assertThat(answer.status()).isEqualTo(404);
		assertThat(answer.json().get("message").asString())
			.isEqualTo("No dependency named 'recomendations-api'; declared: recommendations-api, analytics-collector");
		assertThat(actuator().delete("/actuator/degradation/dependencies/nope").status()).isEqualTo(404);
		assertThat(actuator().post("/actuator/degradation/services/recommendations-api", "{\"state\": \"down\"}")
			.status()).isEqualTo(404);
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void aBadStateIs400AndChangesNothing() throws Exception {
		Answer answer = actuator().post(RECOMMENDATIONS, "{\"state\": \"sideways\"}");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.json().get("message").asString())
			.isEqualTo("'state' must be 'down' or 'up', but was 'sideways'");
		assertThat(actuator().post(RECOMMENDATIONS, "{}").status()).isEqualTo(400);
		assertThat(this.engine.dependency("recommendations-api").forced()).isFalse();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void healthStaysUpWhileDegradedAndShowsWhy() throws Exception {
		actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		Answer health = actuator().get("/actuator/health");
		assertThat(health.status()).isEqualTo(200);
		JsonNode json = health.json();
		assertThat(json.get("status").asString()).isEqualTo("UP");
		JsonNode details = json.get("components").get("degradation").get("details");
		assertThat(details.get("level").asInt()).isEqualTo(2);
		assertThat(details.get("degraded").asBoolean()).isTrue();
		assertThat(details.get("dependencies").get("recommendations-api").asString()).isEqualTo("FAILED (forced)");
		assertThat(details.get("shedTiers").toString()).isEqualTo("[\"best-effort\",\"enhanced\"]");
	}

	@Test
	void dependencyStateAndLevelChangesAreMeasured() throws Exception {
		double changesBefore = this.meters.get("degradation.level.changes").functionCounter().count();
		actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		assertThat(gauge("degradation.dependency.state", "failed")).isEqualTo(1.0);
		assertThat(gauge("degradation.dependency.state", "unknown")).isZero();
		assertThat(this.meters.get("degradation.level").gauge().value()).isEqualTo(2.0);
		actuator().delete(RECOMMENDATIONS);
		assertThat(gauge("degradation.dependency.state", "failed")).isZero();
		assertThat(gauge("degradation.dependency.state", "unknown")).isEqualTo(1.0);
		// Up to 2 at once, then down with no hysteresis: the steps through 1 take no time, so the
		// active level goes 0 -> 2 -> 0 and no request could ever see level 1.
		assertThat(this.meters.get("degradation.level.changes").functionCounter().count())
			.isEqualTo(changesBefore + 2);
		assertThat(this.meters.get("degradation.dependency.error.rate")
			.tag("dependency", "recommendations-api")
			.gauge()
			.value()).isZero();
	}

	@Test
	void everyDependencyStateChangeIsPublishedOnce() throws Exception {
		actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		actuator().post(RECOMMENDATIONS, "{\"state\": \"down\"}");
		actuator().delete(RECOMMENDATIONS);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.events.changes).extracting((event) -> event.getChange().state())
				.containsExactly(DependencyState.FAILED, DependencyState.UNKNOWN));
	}

	private double gauge(String name, String state) {
		return this.meters.get(name).tag("dependency", "recommendations-api").tag("state", state).gauge().value();
	}

	private JsonHttp actuator() {
		return new JsonHttp(this.port);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Events implements ApplicationListener<DependencyStateChangedEvent> {

		final List<DependencyStateChangedEvent> changes = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(DependencyStateChangedEvent event) {
			this.changes.add(event);
		}

	}

}
