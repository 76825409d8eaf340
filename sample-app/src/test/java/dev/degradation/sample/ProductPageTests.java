package dev.degradation.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.sample.embedded.DependencyMode;
import dev.degradation.sample.embedded.EmbeddedDependencies;
import dev.degradation.sample.embedded.EmbeddedDependency;
import dev.degradation.sample.page.ProductPageController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The product page, a partial answer: whole while every part answers; with the recommendations
 * hanging, it answers within its budget with the recommendations unknown ({@code null}) and named
 * in {@code X-Degraded-Parts}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "degradation.probes.enabled=false")
class ProductPageTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** Scheduling and HTTP on a loaded two-core machine, on top of the page's own bound. */
	private static final Duration SLACK = Duration.ofMillis(700);

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
	void heal() {
		this.dependencies.healAll();
	}

	@Test
	void pageWithEveryPartIsWholeAndNamesNoPart() {
		HttpResponse<String> page = this.shop.get("/api/products/p-1/page");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("X-Degraded-Parts")).isEmpty();
		JsonNode body = JSON.readTree(page.body());
		assertThat(body.get("product").get("id").asString()).isEqualTo("p-1");
		assertThat(body.get("reviews").isArray()).isTrue();
		assertThat(body.get("recommendations").isArray()).isTrue();
	}

	@Test
	void pageWithHangingRecommendationsAnswersWithinTheBudgetWithRecommendationsMissing() {
		this.dependencies.dependency(EmbeddedDependency.RECOMMENDATIONS_API).switchTo(DependencyMode.HANGING);
		Instant start = Instant.now();
		HttpResponse<String> page = this.shop.get("/api/products/p-1/page");
		Duration took = Duration.between(start, Instant.now());
		assertThat(took).isLessThan(ProductPageController.PART_BUDGET.plus(SLACK));
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("X-Degraded-Parts")).hasValue("recommendations");
		JsonNode body = JSON.readTree(page.body());
		assertThat(body.get("product").get("name").asString()).isEqualTo("Trail running shoes");
		assertThat(body.get("reviews").isArray()).isTrue();
		assertThat(body.get("recommendations").isNull()).isTrue();
	}

	@Test
	void pageWithFailingRecommendationsAnswersAtOnceWithRecommendationsMissing() {
		this.dependencies.dependency(EmbeddedDependency.RECOMMENDATIONS_API).switchTo(DependencyMode.FAILING);
		Instant start = Instant.now();
		HttpResponse<String> page = this.shop.get("/api/products/p-2/page");
		assertThat(Duration.between(start, Instant.now())).isLessThan(ProductPageController.PART_BUDGET.plus(SLACK));
		assertThat(page.headers().firstValue("X-Degraded-Parts")).hasValue("recommendations");
		assertThat(JSON.readTree(page.body()).get("recommendations").isNull()).isTrue();
	}

}
