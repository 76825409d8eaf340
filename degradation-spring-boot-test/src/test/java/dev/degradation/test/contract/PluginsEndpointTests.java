package dev.degradation.test.contract;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.test.testapp.Plugins;
import dev.degradation.test.testapp.ShopApplication;
import dev.degradation.test.testapp.StatusBoard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shop with a fallback kind and a health source that only the tests declare, on a real
 * server with its probes running: the Actuator endpoint shows the route of the new kind and the
 * dependency the new source judges, and the source's verdict sheds the route that requires that
 * dependency, and only that route, with the new kind's answer.
 */
@SpringBootTest(classes = { ShopApplication.class, Plugins.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { Plugins.MANIFEST, "management.endpoints.web.exposure.include=degradation" })
class PluginsEndpointTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private StatusBoard board;

	@AfterEach
	void lineUp() {
		this.board.set("ledger", true);
	}

	@Test
	void theEndpointShowsTheRouteOfTheNewKindAndTheDependencyOfTheNewSource() throws Exception {
		// Another test may have left the line down: its window recovers within seconds.
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(endpoint().at("/dependencies/ledger/state").asString()).isEqualTo("HEALTHY");
			assertThat(endpoint().at("/tiers/0/routes/0/shed").asBoolean()).isFalse();
		});
		JsonNode degradation = endpoint();
		JsonNode route = degradation.at("/tiers/0/routes/0");
		assertThat(route.get("path").asString()).isEqualTo("/api/recommendations");
		assertThat(route.get("fallback").asString()).isEqualTo("notice");
		assertThat(route.get("fallbackStatus").asInt()).isEqualTo(200);
		assertThat(route.get("requires").get(0).asString()).isEqualTo("ledger");
		assertThat(route.get("shed").asBoolean()).isFalse();
		JsonNode ledger = degradation.at("/dependencies/ledger");
		assertThat(ledger.at("/lastProbe/outcome").asString()).isEqualTo("ok");
		assertThat(ledger.at("/lastProbe/detail").asString()).isEqualTo("status board line 'ledger' is up");
	}

	@Test
	void theNewSourcesVerdictShedsTheRoutesThatRequireItsDependencyWithTheNewKindsAnswer() throws Exception {
		this.board.set("ledger", false);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(endpoint().at("/dependencies/ledger/state").asString())
				.isEqualTo("FAILED"));
		HttpResponse<String> recommendations = get("/api/recommendations");
		assertThat(recommendations.statusCode()).isEqualTo(200);
		assertThat(recommendations.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(recommendations.headers().firstValue("X-Degradation-Reason")).hasValueSatisfying(
				(reason) -> assertThat(reason).startsWith("dependency"));
		assertThat(recommendations.headers().firstValue("Content-Type")).hasValue("text/plain;charset=UTF-8");
		assertThat(recommendations.body()).isEqualTo("Recommendations are resting; try the catalogue");
		HttpResponse<String> reviews = get("/api/products/1/reviews");
		assertThat(reviews.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(reviews.body()).contains("\"source\":\"live\"");
		JsonNode degradation = endpoint();
		assertThat(degradation.at("/tiers/0/routes/0/shed").asBoolean()).isTrue();
		assertThat(degradation.at("/tiers/0/routes/1/shed").asBoolean()).isFalse();
		assertThat(degradation.at("/dependencies/ledger/lastProbe/detail").asString())
			.isEqualTo("status board line 'ledger' is down");
	}

	private JsonNode endpoint() throws Exception {
		HttpResponse<String> response = get("/actuator/degradation");
		assertThat(response.statusCode()).isEqualTo(200);
		return JSON.readTree(response.body());
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
