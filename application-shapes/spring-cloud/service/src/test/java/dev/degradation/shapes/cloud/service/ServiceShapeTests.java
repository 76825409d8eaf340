package dev.degradation.shapes.cloud.service;

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
 * A Spring MVC service calling another by id through a {@code @LoadBalanced RestClient.Builder}
 * it defines itself, on a real server, with Spring Cloud's real simple discovery (the instance is
 * a loopback server registered in its properties) and its real load balancer: it starts under
 * strict verification; when the inventory's only instance is killed, the route that requires it
 * answers its declared fallback from the first failed calls on, and the inventory is never
 * reported healthy while it is dead, through its breaker's open and half-open; once the instance
 * is back, the route is live again.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServiceShapeTests {

	private static final LoopbackDependency inventory = LoopbackDependency.start();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void instances(DynamicPropertyRegistry registry) {
		registry.add("spring.cloud.discovery.client.simple.instances.inventory[0].uri", inventory::url);
	}

	@AfterAll
	static void stopInstances() {
		inventory.close();
	}

	@Test
	@Order(1)
	void underStrictVerificationEveryRouteIsHandledAndLive() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		checks.assertEveryRouteHandled(1);
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(checks.dependencyState("inventory")).isEqualTo("HEALTHY"));
		assertLive(checks, "/api/stock");
	}

	@Test
	@Order(2)
	void aKilledInstanceGetsTheRouteThatRequiresItItsFallbackUntilItIsBack() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		inventory.stop();
		try {
			checks.assertFallbackFromTheFirstFailedCalls("/api/stock", "enhanced");
			assertThat(checks.get("/api/about").statusCode()).isEqualTo(200);
			// Longer than the breaker's open_ms (1 s): through its open and its half-open.
			checks.assertNeverHealthy("inventory", Duration.ofSeconds(4));
			assertThat(checks.dependencyState("inventory")).isEqualTo("FAILED");
		}
		finally {
			inventory.restart();
		}
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(checks.dependencyState("inventory")).isEqualTo("HEALTHY");
			assertLive(checks, "/api/stock");
		});
	}

	private static void assertLive(ShapeChecks checks, String path) {
		HttpResponse<String> response = checks.get(path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).as("GET %s", path).isEmpty();
		assertThat(response.body()).as("GET %s", path).contains("\"source\":\"live\"").contains("UP");
	}

}
