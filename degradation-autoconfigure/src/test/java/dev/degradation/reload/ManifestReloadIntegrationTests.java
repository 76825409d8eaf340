package dev.degradation.reload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.JsonHttp.Answer;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a real server, the manifest reloaded from its file without a restart: through the Actuator
 * and through a configuration refresh; a good manifest takes effect whole, a broken one is refused
 * with every positioned problem while the old one keeps degrading exactly as before, and requests
 * served during reloads never see a half-built table.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation,refresh",
				"management.endpoint.degradation.access=unrestricted" })
class ManifestReloadIntegrationTests {

	/** The first manifest: one tier with the recommendations route. */
	private static final String FIRST = """
			dependencies:
			  recommendations-api: { health_url: "http://127.0.0.1:9/recommendations/healthz", timeout_ms: 500 }
			  analytics-collector: { health_url: "http://127.0.0.1:9/analytics/healthz", timeout_ms: 500 }
			tiers:
			  enhanced:
			    priority: 1
			    routes:
			      - path: /api/recommendations
			        method: GET
			        fallback: static
			        static_response: { "items": [], "manifest": "first" }
			        requires: [recommendations-api]
			""";

	/** The second manifest: the same route with another body, and a route of a new tier. */
	private static final String SECOND = """
			dependencies:
			  recommendations-api: { health_url: "http://127.0.0.1:9/recommendations/healthz", timeout_ms: 500 }
			  analytics-collector: { health_url: "http://127.0.0.1:9/elsewhere/healthz", timeout_ms: 500 }
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - path: /api/ab/assign
			        method: GET
			        fallback: static
			        static_response: { "variant": "control", "manifest": "second" }
			        requires: [analytics-collector]
			  enhanced:
			    priority: 2
			    routes:
			      - path: /api/recommendations
			        method: GET
			        fallback: static
			        static_response: { "items": [], "manifest": "second" }
			        requires: [recommendations-api]
			""";

	private static final String BROKEN = """
			tiers:
			  enhanced:
			    priority: 1
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: static, requires: [recomendations-api] }
			""";

	@TempDir
	static Path directory;

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void manifest(DynamicPropertyRegistry registry) throws IOException {
		write(FIRST);
		registry.add("degradation.manifest", () -> "file:" + directory.resolve("degradation-manifest.yaml"));
		// Values that name each other twice over: 2^40 copies of bomb0 once expanded.
		registry.add("bomb0", () -> "xxxxxxxxxx");
		for (int i = 1; i <= 40; i++) {
			String previous = "${bomb" + (i - 1) + "}";
			registry.add("bomb" + i, () -> previous + previous);
		}
	}

	@BeforeEach
	@AfterEach
	void backToTheFirstManifest() throws Exception {
		this.engine.reset();
		write(FIRST);
		assertThat(actuator().post("/actuator/degradation/manifest", "{}").status()).isEqualTo(200);
	}

	@Test
	void aGoodManifestAddsARouteThatIsThenShedUnderSimulation() throws Exception {
		assertThat(http().send("GET", "/api/ab/assign").degraded()).isFalse();
		write(SECOND);
		Answer reloaded = actuator().post("/actuator/degradation/manifest", "{}");
		assertThat(reloaded.status()).isEqualTo(200);
		assertThat(reloaded.json().get("tiers")).hasSize(2);
		actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		Response assign = http().send("GET", "/api/ab/assign");
		assertThat(assign.degraded()).isTrue();
		assertThat(assign.body()).isEqualTo("{\"variant\":\"control\",\"manifest\":\"second\"}");
		assertThat(http().send("GET", "/api/recommendations").degraded()).as("tier 2 is above level 1").isFalse();
		// The fallback counters name the new manifest's tiers (bound again on the notifier thread);
		// without an 'overload' section there are no admission meters.
		org.awaitility.Awaitility.await()
			.atMost(java.time.Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.meters.find("degradation.fallbacks").functionCounters())
				.extracting((counter) -> counter.getId().getTag("tier"))
				.containsOnly("best-effort", "enhanced"));
		assertThat(this.meters.find("degradation.overload.requests").functionCounters()).isEmpty();
		assertThat(this.meters.get("degradation.manifest.reloads").tag("outcome", "reloaded").functionCounter().count())
			.isPositive();
	}

	@Test
	void aBrokenManifestIsRefusedWithEveryPositionedProblemAndTheOldOneKeepsDegrading() throws Exception {
		double refusedBefore = this.meters.get("degradation.manifest.reloads")
			.tag("outcome", "refused")
			.functionCounter()
			.count();
		write(BROKEN);
		Answer refused = actuator().post("/actuator/degradation/manifest", "{}");
		assertThat(refused.status()).isEqualTo(400);
		JsonNode problems = refused.json().get("problems");
		assertThat(problems).hasSize(2);
		assertThat(problems.get(0).asString()).contains("degradation-manifest.yaml:5:")
			.contains("tiers.enhanced.routes[0].static_response");
		assertThat(problems.get(1).asString()).contains("tiers.enhanced.routes[0].requires[0]")
			.contains("'recomendations-api' is not a declared dependency");
		assertThat(refused.json().get("message").asString()).contains("the active manifest stays");
		assertThat(this.meters.get("degradation.manifest.reloads").tag("outcome", "refused").functionCounter().count())
			.isEqualTo(refusedBefore + 1);

		actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		Response shed = http().send("GET", "/api/recommendations");
		assertThat(shed.degraded()).isTrue();
		assertThat(shed.body()).isEqualTo("{\"items\":[],\"manifest\":\"first\"}");
		assertThat(this.engine.manifest().tiers()).hasSize(1);
	}

	@Test
	void placeholdersNestedOrExpandedPastTheirBoundsAreARefusalWithPositionsNeverAFailure() throws Exception {
		double refusedBefore = this.meters.get("degradation.manifest.reloads")
			.tag("outcome", "refused")
			.functionCounter()
			.count();
		String nested = "${a:".repeat(5000) + "x" + "}".repeat(5000);
		write(FIRST.replace("\"http://127.0.0.1:9/recommendations/healthz\"", "\"" + nested + "\"")
			.replace("127.0.0.1:9/analytics", "${bomb40}/analytics"));
		Answer refused = actuator().post("/actuator/degradation/manifest", "{}");
		assertThat(refused.status()).isEqualTo(400);
		JsonNode problems = refused.json().get("problems");
		assertThat(problems).hasSize(2);
		assertThat(problems.get(0).asString()).contains("degradation-manifest.yaml:2:")
			.contains("dependencies.recommendations-api.health_url")
			.contains("nests placeholders 5000 deep");
		assertThat(problems.get(1).asString()).contains("degradation-manifest.yaml:3:")
			.contains("dependencies.analytics-collector.health_url")
			.contains("cannot resolve the placeholders of 'http://${bomb40}/analytics/healthz'");
		assertThat(this.meters.get("degradation.manifest.reloads").tag("outcome", "refused").functionCounter().count())
			.isEqualTo(refusedBefore + 1);
		assertThat(this.engine.manifest().dependency("recommendations-api").orElseThrow().healthUrl())
			.hasToString("http://127.0.0.1:9/recommendations/healthz");
	}

	@Test
	void anUnchangedDependencyKeepsWhatIsKnownOfItAndAChangedOneStartsAgain() throws Exception {
		this.engine.forceDependency("recommendations-api", DependencyState.FAILED);
		this.engine.forceDependency("analytics-collector", DependencyState.FAILED);
		write(SECOND);
		assertThat(actuator().post("/actuator/degradation/manifest", "{}").status()).isEqualTo(200);
		assertThat(this.engine.dependency("recommendations-api").forced()).isTrue();
		assertThat(http().send("GET", "/api/recommendations").body()).isEqualTo("{\"items\":[],\"manifest\":\"second\"}");
		// Its health URL changed: it is another dependency now, judged from nothing.
		assertThat(this.engine.dependency("analytics-collector").state()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(http().send("GET", "/api/ab/assign").degraded()).isFalse();
	}

	@Test
	void aConfigurationRefreshReloadsAChangedFile() throws Exception {
		write(SECOND);
		assertThat(actuator().post("/actuator/refresh", "{}").status()).isEqualTo(200);
		assertThat(this.engine.manifest().tiers()).extracting((tier) -> tier.name())
			.containsExactly("best-effort", "enhanced");
	}

	@Test
	void requestsDuringReloadsNeverSeeAHalfBuiltTable() throws Exception {
		actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		AtomicBoolean reloading = new AtomicBoolean(true);
		List<String> wrong = new CopyOnWriteArrayList<>();
		ConcurrentHashMap<String, AtomicInteger> seen = new ConcurrentHashMap<>();
		ExecutorService clients = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> load = new java.util.ArrayList<>();
			for (int client = 0; client < 4; client++) {
				load.add(clients.submit(() -> {
					RawHttp http = http();
					int sent = 0;
					while (reloading.get() && sent++ < 2000) {
						try {
							Response response = http.send("GET", "/api/recommendations");
							// Either manifest, but always one of them, whole: its body with its tier.
							boolean first = response.body().equals("{\"items\":[],\"manifest\":\"first\"}");
							boolean second = response.body().contains("\"handler\":\"recommendations\"");
							if (response.status() != 200 || !(first || second)) {
								wrong.add(response.status() + " " + response.body());
							}
							seen.computeIfAbsent(first ? "first" : "second", (key) -> new AtomicInteger())
								.incrementAndGet();
						}
						catch (IOException ex) {
							wrong.add(ex.toString());
						}
					}
				}));
			}
			for (int i = 0; i < 20; i++) {
				write((i % 2 == 0) ? SECOND : FIRST);
				assertThat(actuator().post("/actuator/degradation/manifest", "{}").status()).isEqualTo(200);
			}
			reloading.set(false);
			for (Future<?> future : load) {
				future.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			reloading.set(false);
			clients.shutdownNow();
		}
		assertThat(wrong).isEmpty();
		// At level 1 the first manifest sheds the route (tier 1) and the second does not (tier 2).
		assertThat(seen).containsKeys("first", "second");
	}

	private static void write(String manifest) throws IOException {
		Files.writeString(directory.resolve("degradation-manifest.yaml"), manifest, StandardCharsets.UTF_8);
	}

	private RawHttp http() {
		return new RawHttp(this.port);
	}

	private JsonHttp actuator() {
		return new JsonHttp(this.port);
	}

}
