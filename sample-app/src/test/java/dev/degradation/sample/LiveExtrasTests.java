package dev.degradation.sample;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.sample.embedded.DependencyMode;
import dev.degradation.sample.embedded.EmbeddedDependencies;
import dev.degradation.sample.embedded.EmbeddedDependency;
import dev.degradation.test.AutoConfigureDegradation;

import static dev.degradation.sample.ShopClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The extras' live handlers, at shed level 0: they really call the embedded dependencies, and the
 * manifest's health URLs are those same dependencies. The starter's probes are off
 * ({@link AutoConfigureDegradation}), so that a dependency a test breaks is never shed while the
 * test reads what its live handler answers.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureDegradation
class LiveExtrasTests {

	@LocalServerPort
	private int port;

	@Autowired
	private EmbeddedDependencies dependencies;

	@Autowired
	private DegradationManifest manifest;

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
	void recommendationsComeFromTheRecommendationsApi() {
		HttpResponse<String> response = this.shop.get("/api/recommendations?user=alice");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = json(response);
		assertThat(body.get("source").asString()).isEqualTo("live");
		assertThat(body.get("items").valueStream().map((item) -> item.get("id").asString()))
			.containsExactly("p-2", "p-3");
	}

	@Test
	void personalizationComesFromThePersonalizationService() {
		HttpResponse<String> response = this.shop.get("/api/personalization?user=alice");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(json(response))
			.isEqualTo(json("{\"profile\": \"outdoor-enthusiast\", \"source\": \"live\"}"));
	}

	@Test
	void abAssignmentComesFromTheAnalyticsCollector() {
		HttpResponse<String> response = this.shop.get("/api/ab/assign?experiment=checkout-button&user=alice");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(json(response)).isEqualTo(json(
				"{\"experiment\": \"checkout-button\", \"variant\": \"treatment\", \"source\": \"live\"}"));
	}

	@Test
	void trackedEventIsAcceptedByTheAnalyticsCollector() {
		HttpResponse<String> response = this.shop.post("/api/analytics/track",
				"{\"name\": \"product-viewed\", \"productId\": \"p-1\", \"user\": \"alice\"}");
		assertThat(response.statusCode()).isEqualTo(202);
	}

	@Test
	void failingDependencyMakesItsLiveHandlerAnswerBadGateway() {
		this.dependencies.dependency(EmbeddedDependency.RECOMMENDATIONS_API).switchTo(DependencyMode.FAILING);
		HttpResponse<String> response = this.shop.get("/api/recommendations");
		assertThat(response.statusCode()).isEqualTo(502);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(json(response).get("dependency").asString()).isEqualTo("recommendations-api");
		assertThat(this.shop.get("/api/personalization").statusCode()).isEqualTo(200);
	}

	@Test
	void manifestHealthUrlsPointAtTheEmbeddedDependencies() {
		assertThat(this.manifest.dependencies()).hasSize(3);
		for (Dependency dependency : this.manifest.dependencies()) {
			assertThat(dependency.healthUrl().toString())
				.isEqualTo(this.dependencies.dependency(dependency.name()).url() + "/healthz");
			HttpResponse<String> health = this.shop.send(HttpRequest.newBuilder(dependency.healthUrl()).build());
			assertThat(health.statusCode()).as(dependency.name()).isEqualTo(200);
		}
	}

}
