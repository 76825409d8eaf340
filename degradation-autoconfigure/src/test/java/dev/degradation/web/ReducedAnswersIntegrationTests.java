package dev.degradation.web;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.FaultyDependency;
import dev.degradation.testapp.FaultyDependency.Mode;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reduced answers on a real server: a {@code stale} route answers live, then, once its
 * dependency fails, with its last copy and {@code Age}, and past the bound with its static answer;
 * copies are never shared across users and stay within their bounds; {@code unavailable} answers
 * 503 with its {@code Retry-After} and a problem detail; a static HTML answer has its content type.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/reduced.yaml",
				"degradation.stale.max-entries-per-route=5" })
class ReducedAnswersIntegrationTests {

	private static final FaultyDependency reviews = FaultyDependency.start("reviews-api");

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	StaleAnswers staleAnswers;

	@DynamicPropertySource
	static void dependencies(DynamicPropertyRegistry registry) {
		registry.add("test.reviews.url", reviews::healthUrl);
	}

	@AfterAll
	static void stopDependency() {
		reviews.close();
	}

	@BeforeEach
	void dependencyHealthy() {
		reviews.set(Mode.HEALTHY);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.engine.dependency("reviews-api").state() == DependencyState.HEALTHY
					&& !this.engine.state().shedsAnything());
	}

	@AfterEach
	void stopSimulation() {
		this.engine.stopSimulation();
	}

	@Test
	void staleRouteServesItsLastCopyWithAgeThenItsStaticAnswerPastTheBound() throws IOException {
		Response live = http().send("GET", "/api/catalog/7/reviews?page=1");
		assertThat(live.status()).isEqualTo(200);
		assertThat(live.degraded()).isFalse();
		assertThat(live.body()).contains("\"handler\":\"reviews\"", "\"id\":\"7\"");

		dependencyFails();
		Response stale = http().send("GET", "/api/catalog/7/reviews?page=1");
		assertThat(stale.status()).isEqualTo(200);
		assertThat(stale.degraded()).isTrue();
		assertThat(stale.header("X-Degradation-Reason")).isEqualTo("dependency:reviews-api");
		assertThat(stale.header("Cache-Control")).isEqualTo("no-store");
		assertThat(stale.header("Content-Type")).startsWith("application/json");
		assertThat(Long.parseLong(stale.header("Age"))).isBetween(0L, 4L);
		assertThat(stale.body()).isEqualTo(live.body());
		// Another query is another request: it has no copy.
		Response otherQuery = http().send("GET", "/api/catalog/7/reviews?page=2");
		assertThat(otherQuery.header("Content-Type")).startsWith("text/html");

		await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
			Response past = http().send("GET", "/api/catalog/7/reviews?page=1");
			assertThat(past.degraded()).isTrue();
			assertThat(past.header("Age")).isNull();
			assertThat(past.header("Content-Type")).isEqualTo("text/html;charset=UTF-8");
			assertThat(past.body()).isEqualTo("<p>Reviews are unavailable just now.</p>");
		});
	}

	@Test
	void aStaleRouteWithoutAStaticAnswerFailsFastWithoutACopy() throws IOException {
		dependencyFails();
		Response answer = http().send("GET", "/api/catalog/featured/reviews");
		assertThat(answer.status()).isEqualTo(503);
		assertThat(answer.header("Retry-After")).isEqualTo("7");
		assertThat(answer.degraded()).isTrue();
		assertThat(answer.header("Content-Type")).isEqualTo("application/problem+json");
		assertThat(answer.body()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
				+ "\"detail\":\"GET /api/catalog/featured/reviews is degraded and has no copy of its last good answer "
				+ "young enough to serve; retry after 7 s\",\"degraded\":true,\"tier\":\"enhanced\","
				+ "\"route\":\"GET /api/catalog/featured/reviews\",\"retryAfterSeconds\":7}");
	}

	@Test
	void aRequestWithCredentialsIsNeverStoredNorServedAnotherRequestsCopy() throws IOException {
		http().send("GET", "/api/catalog/21/reviews", "Authorization: Basic dXNlcjpzZWNyZXQ=");
		http().send("GET", "/api/catalog/22/reviews", "Cookie: session=alice");
		http().send("GET", "/api/catalog/23/reviews");
		dependencyFails();
		// Nothing was stored from the requests with credentials or cookies.
		assertThat(http().send("GET", "/api/catalog/21/reviews").header("Age")).isNull();
		assertThat(http().send("GET", "/api/catalog/22/reviews").header("Age")).isNull();
		// An anonymous copy is not served to a request with credentials.
		assertThat(http().send("GET", "/api/catalog/23/reviews").header("Age")).isNotNull();
		Response withCredentials = http().send("GET", "/api/catalog/23/reviews", "Authorization: Bearer bob");
		assertThat(withCredentials.header("Age")).isNull();
		assertThat(withCredentials.body()).isEqualTo("<p>Reviews are unavailable just now.</p>");
	}

	@Test
	void anAnswerThatVariesByAHeaderTheRouteDoesNotIsNeverServedToAnotherCaller() throws IOException {
		// The answer says it is one caller's (Vary: X-Api-Key); its copy kept under the path alone
		// was served to every caller of the path once the route was shed.
		Response own = http().send("GET", "/api/catalog/41/reviews", "X-Api-Key: alice");
		assertThat(own.body()).contains("\"for\":\"alice\"");
		dependencyFails();
		Response another = http().send("GET", "/api/catalog/41/reviews");
		assertThat(another.body()).doesNotContain("alice").isEqualTo("<p>Reviews are unavailable just now.</p>");
		assertThat(another.header("Age")).isNull();
	}

	@Test
	void aRouteThatVariesByAuthorizationKeepsOneCopyPerCredential() throws IOException {
		http().send("GET", "/api/catalog/featured/reviews", "Authorization: Bearer alice");
		dependencyFails();
		Response alice = http().send("GET", "/api/catalog/featured/reviews", "Authorization: Bearer alice");
		assertThat(alice.status()).isEqualTo(200);
		assertThat(alice.header("Age")).isNotNull();
		Response bob = http().send("GET", "/api/catalog/featured/reviews", "Authorization: Bearer bob");
		assertThat(bob.status()).isEqualTo(503);
		assertThat(bob.header("Age")).isNull();
	}

	@Test
	void copiesStayWithinTheirBoundsUnderManyDistinctPaths() throws IOException {
		int paths = 40;
		for (int i = 0; i < paths; i++) {
			assertThat(http().send("GET", "/api/catalog/bound-" + i + "/reviews").status()).isEqualTo(200);
		}
		StaleAnswers.Limits limits = this.staleAnswers.limits();
		assertThat(limits.maxEntriesPerRoute()).isEqualTo(5);
		assertThat(this.staleAnswers.entries()).isLessThanOrEqualTo(2L * limits.maxEntriesPerRoute());
		assertThat(this.staleAnswers.bytes()).isPositive().isLessThanOrEqualTo(limits.maxBytes());
		assertThat(this.staleAnswers.evicted()).isGreaterThanOrEqualTo(paths - limits.maxEntriesPerRoute());
		dependencyFails();
		// The most recent paths kept their copies; the oldest were evicted.
		assertThat(http().send("GET", "/api/catalog/bound-" + (paths - 1) + "/reviews").header("Age")).isNotNull();
		assertThat(http().send("GET", "/api/catalog/bound-0/reviews").header("Age")).isNull();
	}

	@Test
	void unavailableAnswers503WithItsRetryAfter() throws IOException {
		this.engine.simulate(2);
		Response answer = http().send("GET", "/api/recommendations");
		assertThat(answer.status()).isEqualTo(503);
		assertThat(answer.header("Retry-After")).isEqualTo("120");
		assertThat(answer.degraded()).isTrue();
		assertThat(answer.header("Content-Type")).isEqualTo("application/problem+json");
		assertThat(answer.body()).startsWith("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,")
			.contains("\"detail\":\"GET /api/recommendations is degraded and has no reduced answer; retry after 120 s\"",
					"\"retryAfterSeconds\":120");
	}

	@Test
	void aStaticHtmlAnswerHasItsContentTypeAndHeaders() throws IOException {
		this.engine.simulate(2);
		Response answer = http().send("GET", "/api/ab/assign");
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.header("Content-Type")).isEqualTo("text/html;charset=UTF-8");
		assertThat(answer.header("X-Variant")).isEqualTo("control");
		assertThat(answer.degraded()).isTrue();
		assertThat(answer.body()).isEqualTo("<p>Variant: control</p>\n");
	}

	private void dependencyFails() {
		reviews.set(Mode.FAILING);
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.engine.state().shedCause(0) != null);
	}

	private RawHttp http() {
		return new RawHttp(this.port);
	}

}
