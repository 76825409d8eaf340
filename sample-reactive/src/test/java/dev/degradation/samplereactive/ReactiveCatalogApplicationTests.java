package dev.degradation.samplereactive;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reactive sample as it runs, on Reactor Netty on a random port with its embedded
 * dependencies: a shed route answers its fallback while the others are served live, whether the
 * tier is shed by simulation through the Actuator or the route's dependency fails, the
 * capacity-limited checkout's suggestions among them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReactiveCatalogApplicationTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@AfterEach
	void backToNormal() throws Exception {
		post("/actuator/degradation", "{\"enabled\": false}");
		post("/demo/dependencies/recommendations-api?failing=false", "");
		post("/demo/dependencies/reviews-api?delayMs=0", "");
	}

	@Test
	void aDeadlineOf100MsBoundsAWebClientCallThatTakes500Ms() throws Exception {
		assertLive(get("/api/products/1/reviews"));
		post("/demo/dependencies/reviews-api?delayMs=500", "");
		long start = System.nanoTime();
		HttpResponse<String> bounded = this.http.send(HttpRequest.newBuilder(uri("/api/products/1/reviews"))
			.timeout(Duration.ofSeconds(10))
			.header("x-envoy-expected-rq-timeout-ms", "100")
			.build(), HttpResponse.BodyHandlers.ofString());
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		// The guarded call ends at the caller's deadline and the route answers its fallback, well
		// before the dependency would have answered; unguarded, it would wait the 500 ms out and
		// answer live.
		assertThat(bounded.statusCode()).isEqualTo(200);
		assertThat(bounded.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(bounded.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:reviews-api");
		assertThat(bounded.body()).isEqualTo("{\"reviews\":[],\"source\":\"degraded\"}");
		assertThat(took).isLessThan(Duration.ofMillis(450));
	}

	@Test
	void simulationThroughTheActuatorShedsTheLowestTierWhileTheOthersAreServedLive() throws Exception {
		recommendationsAreLive();
		HttpResponse<String> simulated = post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		assertThat(simulated.statusCode()).isEqualTo(200);
		HttpResponse<String> shed = get("/api/recommendations");
		assertThat(shed.statusCode()).isEqualTo(200);
		assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(shed.headers().firstValue("X-Degradation-Tier")).hasValue("best-effort");
		assertThat(shed.headers().firstValue("X-Degradation-Level")).hasValue("1");
		assertThat(shed.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
		// Level 1 sheds best-effort only: the reviews (enhanced) and the products (core) are live.
		assertLive(get("/api/products/1/reviews"));
		HttpResponse<String> products = get("/api/products");
		assertThat(products.statusCode()).isEqualTo(200);
		assertThat(products.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(products.body()).contains("Teacup");
	}

	@Test
	void aFailingDependencyShedsTheRouteThatRequiresItAndItIsServedAgainOnceTheDependencyRecovers()
			throws Exception {
		recommendationsAreLive();
		post("/demo/dependencies/recommendations-api?failing=true", "");
		// Probes once a second, three failed ones in the window judge it failed.
		await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
			HttpResponse<String> shed = get("/api/recommendations");
			assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
			assertThat(shed.body()).contains("\"source\":\"degraded\"");
		});
		assertLive(get("/api/products/1/reviews"));
		post("/demo/dependencies/recommendations-api?failing=false", "");
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertLive(get("/api/recommendations")));
	}

	@Test
	void theCheckoutSuggestionsAnswerTheirFallbackWhenTheirTierIsShed() throws Exception {
		assertThat(get("/api/checkout/suggestions").body()).contains("\"source\":\"live\"");
		post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		HttpResponse<String> shed = get("/api/checkout/suggestions");
		assertThat(shed.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(shed.body()).isEqualTo("{\"suggestions\":[],\"source\":\"degraded\"}");
		assertLive(get("/api/checkout"));
	}

	/**
	 * The first call of a fresh application to its dependency (a new connection, code run for the
	 * first time) may exceed its 1 s call timeout on a busy machine: the route is live once a call
	 * is not.
	 */
	private void recommendationsAreLive() {
		await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertLive(get("/api/recommendations")));
	}

	private static void assertLive(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(response.body()).contains("\"source\":\"live\"");
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(uri(path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

}
