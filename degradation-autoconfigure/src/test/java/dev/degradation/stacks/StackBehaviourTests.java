package dev.degradation.stacks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.DynamicPropertyRegistry;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.testapp.FaultyDependency;
import dev.degradation.web.CheapAnswerTurns;
import dev.degradation.web.RefusedCallers;
import dev.degradation.web.RequestDecider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One suite of the starter's behaviour, run on a real server of each web stack (as Spring Boot
 * runs one endpoint test on MVC and WebFlux): shedding by simulation, by switch, by a failing
 * dependency and by overload, the headers that mark a reduced answer, the metrics, a reload, the
 * endpoint (its strict writes, reset and status page), health and events. A subclass names the stack; every assertion here holds on both.
 */
abstract class StackBehaviourTests {

	private static final JsonMapper JSON = JsonMapper.shared();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	StackTestApplication.Holds holds;

	@Autowired
	OverloadSignal overload;

	@Autowired
	ApplicationContext context;

	@Autowired
	StackTestApplication.Events events;

	@Autowired
	RequestDecider decider;

	/**
	 * A dependency and a manifest of the stack's own, since each stack's application probes and
	 * reloads on its own.
	 */
	record Fixture(FaultyDependency inventory, Path manifest) implements AutoCloseable {

		static Fixture start() {
			return new Fixture(FaultyDependency.start("inventory"), copyOfManifest());
		}

		void register(DynamicPropertyRegistry registry) {
			registry.add("test.inventory.url", this.inventory::healthUrl);
			registry.add("degradation.manifest", () -> this.manifest.toUri().toString());
		}

		@Override
		public void close() {
			this.inventory.close();
		}

	}

	abstract Fixture fixture();

	@AfterEach
	void restore() throws Exception {
		this.holds.reset();
		fixture().inventory().set(FaultyDependency.Mode.HEALTHY);
		send("POST", "/actuator/degradation", "{\"enabled\": false}");
		send("DELETE", "/actuator/degradation/switches/best-effort", null);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engine.state().level() == 0
				&& !this.engine.state().shedsAnything() && this.overload.active().admission().inflight() == 0);
	}

	abstract String expectedStack();

	@Test
	void theStackIsTheOneTheSubclassNames() {
		assertThat(this.context.getClass().getName()).containsIgnoringCase(expectedStack());
	}

	@Test
	void aLiveAnswerCarriesTheLevelAndNoMarkOfDegradation() throws Exception {
		HttpResponse<String> response = send("GET", "/api/items/7", null);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("live item 7");
		assertThat(response.headers().firstValue("X-Degradation-Level")).hasValue("0");
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
	}

	@Test
	void simulationThroughTheEndpointShedsTiersInOrderWithTheirFallbacks() throws Exception {
		assertThat(send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 1}").statusCode())
			.isEqualTo(200);
		HttpResponse<String> dropped = send("POST", "/api/track", null);
		assertThat(dropped.statusCode()).isEqualTo(204);
		assertThat(dropped.body()).isEmpty();
		assertDegraded(dropped, "best-effort", "simulation", "1");
		assertThat(send("GET", "/api/items/1", null).body()).isEqualTo("live item 1");

		send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		HttpResponse<String> fallback = send("GET", "/api/items/1", null);
		assertThat(fallback.statusCode()).isEqualTo(200);
		assertThat(fallback.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/json"));
		assertThat(fallback.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
		assertDegraded(fallback, "enhanced", "simulation", "2");

		JsonNode status = JSON.readTree(send("GET", "/actuator/degradation", null).body());
		assertThat(status.get("level").asInt()).isEqualTo(2);
		assertThat(status.get("shedTiers").toString()).contains("best-effort", "enhanced");
	}

	@Test
	void aFallbackAfterARefusedCallKeepsTheSessionAndNothingOfTheFailedAnswer() throws Exception {
		HttpResponse<String> fallback = send("GET", "/api/stock/7", null);
		assertThat(fallback.statusCode()).isEqualTo(200);
		assertThat(fallback.body()).isEqualTo("{\"stock\":[],\"source\":\"degraded\"}");
		assertDegraded(fallback, "enhanced", "dependency:inventory", null);
		// What the handler set of the answer it meant to give, and its cookie, describe work that
		// did not happen; its own header and the session the server made for the request stay.
		assertThat(fallback.headers().map()).doesNotContainKeys("etag", "content-language", "location");
		assertThat(fallback.headers().firstValue("X-Handler-Note")).hasValue("kept");
		assertThat(fallback.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/json"));
		List<String> cookies = fallback.headers().allValues("Set-Cookie");
		assertThat(cookies).noneMatch((cookie) -> cookie.startsWith("cart="));
		assertThat(cookies).singleElement().asString().startsWith(sessionCookieName() + "=");
	}

	/**
	 * Return the name of the stack's session cookie.
	 * @return the name
	 */
	abstract String sessionCookieName();

	@Test
	void anUnavailableRouteAnswers503WithItsRetryAfterAndAProblemDetail() throws Exception {
		send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		HttpResponse<String> unavailable = send("GET", "/api/report", null);
		assertThat(unavailable.statusCode()).isEqualTo(503);
		assertThat(unavailable.headers().firstValue("Retry-After")).hasValue("9");
		assertThat(unavailable.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertDegraded(unavailable, "best-effort", "simulation", "1");
		JsonNode problem = JSON.readTree(unavailable.body());
		assertThat(problem.get("type").asString()).isEqualTo("about:blank");
		assertThat(problem.get("title").asString()).isEqualTo("Service Unavailable");
		assertThat(problem.get("status").asInt()).isEqualTo(503);
		assertThat(problem.get("detail").asString())
			.isEqualTo("GET /api/report is degraded and has no reduced answer; retry after 9 s");
		assertThat(problem.get("route").asString()).isEqualTo("GET /api/report");
		assertThat(problem.get("retryAfterSeconds").asInt()).isEqualTo(9);
	}

	@Test
	void theActuatorIsNeverShed() throws Exception {
		send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		HttpResponse<String> health = send("GET", "/actuator/health", null);
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.headers().firstValue("X-Degraded")).isEmpty();
	}

	@Test
	void aSwitchTurnsATierOffUntilItIsRemoved() throws Exception {
		assertThat(send("POST", "/actuator/degradation/switches/best-effort", "{\"state\": \"off\"}").statusCode())
			.isEqualTo(200);
		HttpResponse<String> dropped = send("POST", "/api/track", null);
		assertThat(dropped.statusCode()).isEqualTo(204);
		assertDegraded(dropped, "best-effort", "switch:best-effort", "0");
		assertThat(send("GET", "/api/items/1", null).body()).isEqualTo("live item 1");
		assertThat(send("POST", "/actuator/degradation/switches/no-such-tier", "{\"state\": \"off\"}").statusCode())
			.isEqualTo(404);

		send("DELETE", "/actuator/degradation/switches/best-effort", null);
		assertThat(send("POST", "/api/track", null).body()).isEqualTo("tracked");
	}

	@Test
	void aFailingDependencyShedsTheRoutesThatRequireItAndOnlyThose() throws Exception {
		fixture().inventory().set(FaultyDependency.Mode.FAILING);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> send("GET", "/api/items/3", null).headers().firstValue("X-Degraded").isPresent());
		HttpResponse<String> fallback = send("GET", "/api/items/3", null);
		assertDegraded(fallback, "enhanced", "dependency:inventory", "0");
		assertThat(fallback.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
		assertThat(send("POST", "/api/track", null).body()).isEqualTo("tracked");

		fixture().inventory().set(FaultyDependency.Mode.HEALTHY);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "live item 3".equals(send("GET", "/api/items/3", null).body()));
	}

	@Test
	void underOverloadTheLowestTiersAreShedFirstAndCoreRequestsAreRefusedWithRetryAfter() throws Exception {
		List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			held.add(this.client.sendAsync(request("GET", "/api/hold", null), HttpResponse.BodyHandlers.ofString()));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> this.holds.started.get() == 3);
		assertThat(this.overload.active().admission().inflight()).isEqualTo(3);

		HttpResponse<String> dropped = send("POST", "/api/track", null);
		assertThat(dropped.statusCode()).isEqualTo(204);
		assertDegraded(dropped, "best-effort", "overload", null);
		HttpResponse<String> fallback = send("GET", "/api/items/1", null);
		assertThat(fallback.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
		assertDegraded(fallback, "enhanced", "overload", null);
		HttpResponse<String> refused = send("GET", "/api/core", null);
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("3");
		assertThat(refused.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(refused.headers().firstValue("X-Degradation-Reason")).hasValue("overload");
		assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(send("GET", "/actuator/degradation", null).statusCode()).as("the controls stay reachable")
			.isEqualTo(200);

		this.holds.release.complete("released");
		for (CompletableFuture<HttpResponse<String>> answer : held) {
			HttpResponse<String> response = answer.get();
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("released");
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> this.overload.active().admission().inflight() == 0);
		assertThat(send("GET", "/api/core", null).body()).isEqualTo("core");
		// A request's end is told once its answer is sent, which may be after its caller read it.
		await().atMost(Duration.ofSeconds(5)).until(() -> this.overload.active().admission().succeeded() >= 4);
	}

	@Test
	void aCheapAnswerToARequestWhoseBodyIsStillArrivingReachesItsCaller() throws Exception {
		// The starter answers a shed or refused request without reading its body, and a
		// connection closed on a body not read is reset: a client still sending its body loses
		// the answer unless what arrives of the body is let go (Jetty swallows none of it).
		List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			held.add(this.client.sendAsync(request("GET", "/api/hold", null), HttpResponse.BodyHandlers.ofString()));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> this.holds.started.get() == 3);
		try {
			for (int size : new int[] { 128 * 1024, 512 * 1024, 1000 * 1024 }) {
				String json = "{\"x\": \"" + "x".repeat(size) + "\"}";
				for (int i = 0; i < 5; i++) {
					HttpResponse<String> dropped = send("POST", "/api/track", json);
					assertThat(dropped.statusCode()).as("dropped, %d bytes, %d", size, i + 1).isEqualTo(204);
					HttpResponse<String> refused = send("POST", "/api/core", json);
					assertThat(refused.statusCode()).as("refused, %d bytes, %d", size, i + 1).isEqualTo(503);
				}
			}
		}
		finally {
			this.holds.release.complete("released");
			for (CompletableFuture<HttpResponse<String>> answer : held) {
				answer.get();
			}
		}
	}

	@Test
	void aRefusalTakesItsTurnOnlyWhenItsCallerCameBackBeforeItsRetryAfter() throws Exception {
		CheapAnswerTurns turns = CheapAnswerTurns.of(1, Duration.ofSeconds(10));
		this.decider.setCheapAnswerTurns(turns);
		this.decider.setRefusedCallers(new RefusedCallers(RefusedCallers.Mode.RETRYING));
		List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
		try {
			for (int i = 0; i < 3; i++) {
				held.add(this.client.sendAsync(request("GET", "/api/hold", null), HttpResponse.BodyHandlers.ofString()));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> this.holds.started.get() == 3);
			assertThat(turns.enter()).as("the test holds the only turn").isTrue();
			try {
				assertThat(send("GET", "/api/core", null).statusCode()).as("a first refusal is written at once")
					.isEqualTo(503);
				CompletableFuture<HttpResponse<String>> again = this.client.sendAsync(request("GET", "/api/core", null),
						HttpResponse.BodyHandlers.ofString());
				await().atMost(Duration.ofSeconds(10)).until(() -> turns.waiting() == 1);
				assertThat(again).as("the caller came back within its Retry-After: its refusal waits").isNotDone();
				turns.leave(System.nanoTime());
				assertThat(again.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(503);
				assertThat(turns.enter()).as("the turn was given back").isTrue();
				this.decider.setRefusedCallers(new RefusedCallers(RefusedCallers.Mode.NEVER));
				assertThat(send("GET", "/api/core", null).statusCode()).as("never in turns: at once").isEqualTo(503);
				assertThat(turns.waiting()).isZero();
			}
			finally {
				turns.leave(System.nanoTime());
			}
			this.holds.release.complete("released");
			for (CompletableFuture<HttpResponse<String>> answer : held) {
				assertThat(answer.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
			}
		}
		finally {
			this.decider.setCheapAnswerTurns(CheapAnswerTurns.standard());
			this.decider.setRefusedCallers(new RefusedCallers(RefusedCallers.Mode.RETRYING));
		}
	}

	@Test
	void whileAnAdmittedRequestIsServedACheapAnswerIsWrittenInItsTurn() throws Exception {
		CheapAnswerTurns turns = CheapAnswerTurns.of(1, Duration.ofSeconds(10));
		this.decider.setCheapAnswerTurns(turns);
		try {
			CompletableFuture<HttpResponse<String>> held = this.client.sendAsync(request("GET", "/api/hold", null),
					HttpResponse.BodyHandlers.ofString());
			await().atMost(Duration.ofSeconds(10)).until(() -> this.holds.started.get() == 1);
			assertThat(send("POST", "/actuator/degradation/switches/best-effort", "{\"state\": \"off\"}").statusCode())
				.isEqualTo(200);
			assertThat(turns.enter()).as("the test holds the only turn").isTrue();
			CompletableFuture<HttpResponse<String>> dropped;
			CompletableFuture<HttpResponse<String>> pastItsDeadline;
			try {
				dropped = this.client.sendAsync(request("POST", "/api/track", null),
						HttpResponse.BodyHandlers.ofString());
				await().atMost(Duration.ofSeconds(10)).until(() -> turns.waiting() == 1);
				assertThat(dropped).as("no answer while its turn is held").isNotDone();
				// A caller's deadline does not take it out of the line: its own header would
				// otherwise let a flood of cheap answers skip the turns that ration it.
				HttpRequest passed = HttpRequest.newBuilder(request("POST", "/api/track", null), (name, value) -> true)
					.header("x-envoy-expected-rq-timeout-ms", "0")
					.build();
				pastItsDeadline = this.client.sendAsync(passed, HttpResponse.BodyHandlers.ofString());
				await().atMost(Duration.ofSeconds(10)).until(() -> turns.waiting() == 2);
				assertThat(pastItsDeadline).as("no answer out of turn for a caller whose deadline passed").isNotDone();
			}
			finally {
				turns.leave(System.nanoTime());
			}
			HttpResponse<String> answer = dropped.get(10, TimeUnit.SECONDS);
			assertThat(answer.statusCode()).isEqualTo(204);
			assertDegraded(answer, "best-effort", "switch:best-effort", null);
			assertThat(pastItsDeadline.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
			await().atMost(Duration.ofSeconds(5)).until(() -> turns.waiting() == 0);
			assertThat(turns.enter()).as("the turn was given back").isTrue();
			turns.leave(System.nanoTime());
			this.holds.release.complete("released");
			assertThat(held.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");

			// With nothing admitted in flight there is nothing to protect: no turn is taken.
			await().atMost(Duration.ofSeconds(10)).until(() -> this.overload.active().admission().inflight() == 0);
			assertThat(turns.enter()).as("the test holds the only turn").isTrue();
			try {
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(send("POST", "/api/track", null).statusCode()).isEqualTo(204));
				assertThat(turns.waiting()).isZero();
			}
			finally {
				turns.leave(System.nanoTime());
			}
		}
		finally {
			this.decider.setCheapAnswerTurns(CheapAnswerTurns.standard());
		}
	}

	@Test
	void fallbacksAreCountedAndTheServerRequestMetricsNameTheRouteAndSayDegraded() throws Exception {
		send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		for (int i = 0; i < 3; i++) {
			assertThat(send("POST", "/api/track", null).statusCode()).isEqualTo(204);
		}
		JsonNode fallbacks = JSON
			.readTree(send("GET", "/actuator/metrics/degradation.fallbacks?tag=tier:best-effort", null).body());
		assertThat(fallbacks.get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(3);
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			HttpResponse<String> requests = send("GET",
					"/actuator/metrics/http.server.requests?tag=uri:/api/track&tag=degraded:true", null);
			assertThat(requests.statusCode()).isEqualTo(200);
			assertThat(JSON.readTree(requests.body()).get("measurements").get(0).get("value").asDouble())
				.isGreaterThanOrEqualTo(3);
		});
	}

	@Test
	void aReloadedManifestIsWhatBothStacksAnswerFrom() throws Exception {
		String original = Files.readString(fixture().manifest());
		try {
			Files.writeString(fixture().manifest(), original.replace("\"source\": \"degraded\"", "\"source\": \"reloaded\""));
			// As the docs promise: a reload is a bare POST, without a body or a Content-Type.
			HttpResponse<String> reloaded = send("POST", "/actuator/degradation/manifest", null);
			assertThat(reloaded.statusCode()).as(reloaded.body()).isEqualTo(200);
			send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
			assertThat(send("GET", "/api/items/1", null).body()).isEqualTo("{\"items\":[],\"source\":\"reloaded\"}");
		}
		finally {
			Files.writeString(fixture().manifest(), original);
			send("POST", "/actuator/degradation/manifest", null);
		}
	}

	@Test
	void writesAreTypedStrictlyAndTheUrlNamesTheTarget() throws Exception {
		HttpResponse<String> redirected = send("POST", "/actuator/degradation/switches/best-effort",
				"{\"state\": \"off\", \"name\": \"enhanced\"}");
		assertThat(redirected.statusCode()).isEqualTo(400);
		assertThat(JSON.readTree(redirected.body()).get("message").asString())
			.isEqualTo("'name' is not taken in the body: the URL names the target (switches/best-effort)");
		HttpResponse<String> notABoolean = send("POST", "/actuator/degradation", "{\"enabled\": \"yes\"}");
		assertThat(notABoolean.statusCode()).isEqualTo(400);
		assertThat(JSON.readTree(notABoolean.body()).get("message").asString())
			.isEqualTo("'enabled' must be true or false, but was the string \"yes\"");
		HttpResponse<String> unknown = send("POST", "/actuator/degradation", "{\"enabled\": true, \"levle\": 2}");
		assertThat(JSON.readTree(unknown.body()).get("message").asString())
			.isEqualTo("Unknown key 'levle'; this operation takes 'enabled', 'level', 'ttl'");
		HttpResponse<String> malformed = send("POST", "/actuator/degradation", "{\"enabled\": tru");
		assertThat(malformed.statusCode()).isEqualTo(400);
		assertThat(malformed.body()).contains("The body is not valid JSON");
		HttpResponse<String> tooLarge = send("POST", "/actuator/degradation",
				"{\"enabled\": false, \"ttl\": \"" + "x".repeat(17 * 1024) + "\"}");
		assertThat(tooLarge.statusCode()).isEqualTo(413);
		assertThat(tooLarge.body()).contains("The body is larger than 16384 bytes");
		HttpResponse<String> text = this.client.send(HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/degradation"))
			.header("Content-Type", "text/plain")
			.POST(HttpRequest.BodyPublishers.ofString("enabled=true"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(text.statusCode()).isEqualTo(415);
		assertThat(text.body()).contains("Writes take a JSON body (Content-Type: application/json), not text/plain");
		assertThat(this.engine.state().shedsAnything()).as("no refused write changed anything").isFalse();
		assertThat(this.engine.state().simulation().enabled()).isFalse();
	}

	@Test
	void aWriteOverItsBoundIsAnsweredEvenWhenItsBodyFollowsItsHeadersAtOnce() throws Exception {
		// The server answers before it read the body, and a connection closed on unread bytes is
		// reset: a client still sending its body then loses the answer. It must arrive every time.
		for (int size : new int[] { 17 * 1024, 64 * 1024, 256 * 1024 }) {
			String json = "{\"enabled\": false, \"ttl\": \"" + "x".repeat(size) + "\"}";
			for (int i = 0; i < 10; i++) {
				HttpResponse<String> refused = send("POST", "/actuator/degradation", json);
				assertThat(refused.statusCode()).as("%d bytes, write %d", size, i + 1).isEqualTo(413);
			}
		}
		assertThat(this.engine.state().simulation().enabled()).isFalse();
	}

	@Test
	void theStatusPageAndItsAssetsAreServed() throws Exception {
		HttpResponse<String> page = send("GET", "/actuator/degradation/ui", null);
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(page.body()).contains("<html", "status.js");
		HttpResponse<String> script = send("GET", "/actuator/degradation/ui/status.js", null);
		assertThat(script.statusCode()).isEqualTo(200);
		assertThat(script.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/javascript"));
		assertThat(send("GET", "/actuator/degradation/ui/status.css", null).statusCode()).isEqualTo(200);
		assertThat(send("GET", "/actuator/degradation/ui/nothing.js", null).statusCode()).isEqualTo(404);
	}

	@Test
	void theStatusPageWithATrailingSlashSendsTheBrowserToThePage() throws Exception {
		HttpResponse<String> slash = send("GET", "/actuator/degradation/ui/", null);
		assertThat(slash.statusCode()).isEqualTo(302);
		assertThat(slash.headers().firstValue("Location")).hasValue("../ui");
		URI page = slash.uri().resolve(slash.headers().firstValue("Location").orElseThrow());
		assertThat(page.getPath()).isEqualTo("/actuator/degradation/ui");
		HttpResponse<String> followed = send("GET", page.getPath(), null);
		assertThat(followed.statusCode()).isEqualTo(200);
		assertThat(followed.body()).contains("<html", "status.js");
	}

	@Test
	void healthShowsTheDegradationStateInItsDetailsAndStaysUp() throws Exception {
		send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		HttpResponse<String> response = send("GET", "/actuator/health", null);
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode health = JSON.readTree(response.body());
		assertThat(health.get("status").asString()).isEqualTo("UP");
		JsonNode degradation = health.get("components").get("degradation");
		assertThat(degradation.get("status").asString()).isEqualTo("UP");
		assertThat(degradation.get("details").get("level").asInt()).isEqualTo(1);
		assertThat(degradation.get("details").get("simulation").asBoolean()).isTrue();
		assertThat(degradation.get("details").get("shedTiers").toString()).contains("best-effort");
		assertThat(degradation.get("details").get("dependencies").has("inventory")).isTrue();
	}

	@Test
	void theLevelGaugeReadsTheActiveLevel() throws Exception {
		assertThat(level()).isEqualTo(0);
		send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		assertThat(level()).isEqualTo(2);
	}

	@Test
	void aLevelChangeIsPublishedAsAnApplicationEvent() throws Exception {
		this.events.levels.clear();
		send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.events.levels).anySatisfy((change) -> {
				assertThat(change.previousLevel()).isEqualTo(0);
				assertThat(change.level()).isEqualTo(2);
				assertThat(change.shedTiers()).containsExactlyInAnyOrder("best-effort", "enhanced");
			}));
	}

	@Test
	void aResetPutsTheEngineBackAsItStarted() throws Exception {
		send("POST", "/actuator/degradation", "{\"enabled\": true, \"level\": 2}");
		send("POST", "/actuator/degradation/switches/best-effort", "{\"state\": \"off\"}");
		assertThat(this.engine.state().level()).isEqualTo(2);
		HttpResponse<String> reset = send("DELETE", "/actuator/degradation", null);
		assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);
		JsonNode status = JSON.readTree(reset.body());
		assertThat(status.get("level").asInt()).isEqualTo(0);
		assertThat(status.get("simulation").get("enabled").asBoolean()).isFalse();
		assertThat(this.engine.state().shedsAnything()).isFalse();
		assertThat(send("POST", "/api/track", null).body()).isEqualTo("tracked");
	}

	private double level() throws Exception {
		HttpResponse<String> gauge = send("GET", "/actuator/metrics/degradation.level", null);
		assertThat(gauge.statusCode()).as(gauge.body()).isEqualTo(200);
		return JSON.readTree(gauge.body()).get("measurements").get(0).get("value").asDouble();
	}

	private static void assertDegraded(HttpResponse<String> response, String tier, String reason, String level) {
		assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(response.headers().firstValue("X-Degradation-Tier")).hasValue(tier);
		assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue(reason);
		if (level != null) {
			assertThat(response.headers().firstValue("X-Degradation-Level")).hasValue(level);
		}
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
	}

	HttpResponse<String> send(String method, String path, String json) throws IOException, InterruptedException {
		return this.client.send(request(method, path, json), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String method, String path, String json) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10));
		if (json != null) {
			request.header("Content-Type", "application/json");
		}
		return request.method(method, (json != null) ? HttpRequest.BodyPublishers.ofString(json)
				: HttpRequest.BodyPublishers.noBody()).build();
	}

	private static Path copyOfManifest() {
		try {
			Path copy = Files.createTempFile("stacks", ".yaml");
			copy.toFile().deleteOnExit();
			Files.write(copy, new ClassPathResource("manifests/stacks.yaml").getContentAsByteArray());
			return copy;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
