package dev.degradation.shapes.cloud.gateway;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.shapes.ShapeChecks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Cloud Gateway whose routes and own handler name their services by id, on a real server,
 * with Spring Cloud's real simple discovery (the instances are loopback servers registered in its
 * properties), its real load balancer, and Resilience4j behind the routes' {@code CircuitBreaker}
 * filter: it starts under strict verification; when the catalog's only instance is killed, every
 * route that requires it answers its declared fallback from the first failed call on (not the
 * circuit breaker's fallback, which still answers a route the manifest does not name), and the
 * catalog is never reported healthy while it is dead, through its breaker's open and half-open;
 * once the instance is back, the routes are live again.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatewayShapeTests {

	private static final LoopbackDependency catalog = LoopbackDependency.start();

	private static final LoopbackDependency reviews = LoopbackDependency.start();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void instances(DynamicPropertyRegistry registry) {
		registry.add("spring.cloud.discovery.client.simple.instances.catalog[0].uri", catalog::url);
		registry.add("spring.cloud.discovery.client.simple.instances.reviews[0].uri", reviews::url);
	}

	@AfterAll
	static void stopInstances() {
		catalog.close();
		reviews.close();
	}

	@Test
	@Order(1)
	void underStrictVerificationEveryRouteIsHandledAndLive() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		checks.assertEveryRouteHandled(3);
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			assertThat(checks.dependencyState("catalog")).isEqualTo("HEALTHY");
			assertThat(checks.dependencyState("reviews")).isEqualTo("HEALTHY");
		});
		assertLive(checks, "/catalog/items");
		assertLive(checks, "/api/catalog-summary");
		assertLive(checks, "/reviews/latest");
	}

	@Test
	@Order(2)
	void aKilledInstanceGetsTheRoutesThatRequireItTheirFallbackUntilItIsBack() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		catalog.stop();
		try {
			// The routes' CircuitBreaker filter catches the first failed call, and its fallback
			// does not answer a route that requires the catalog: the declared one does.
			HttpResponse<String> first = checks.get("/catalog/items");
			assertThat(first.headers().firstValue("X-Degraded")).as(first.body()).hasValue("true");
			assertThat(first.body()).isEqualTo("{\"source\":\"degraded\"}");
			checks.assertFallbackFromTheFirstFailedCalls("/catalog/items", "enhanced");
			checks.assertFallbackFromTheFirstFailedCalls("/api/catalog-summary", "enhanced");
			assertLive(checks, "/reviews/latest");
			// A route the manifest does not name keeps the application's own fallback.
			HttpResponse<String> core = checks.get("/legacy/items");
			assertThat(core.headers().firstValue("X-Degraded")).isEmpty();
			assertThat(core.body()).isEqualTo("{\"source\":\"application-fallback\"}");
			// Longer than the breaker's open_ms (1 s): through its open and its half-open.
			checks.assertNeverHealthy("catalog", Duration.ofSeconds(4));
			assertThat(checks.dependencyState("catalog")).isEqualTo("FAILED");
		}
		finally {
			catalog.restart();
		}
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(checks.dependencyState("catalog")).isEqualTo("HEALTHY");
			assertLive(checks, "/catalog/items");
			assertLive(checks, "/api/catalog-summary");
		});
	}

	private static void assertLive(ShapeChecks checks, String path) {
		HttpResponse<String> response = checks.get(path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).as("GET %s", path).isEmpty();
		assertThat(response.body()).as("GET %s", path).contains("UP").doesNotContain("fallback");
	}

}
