package dev.degradation.shapes.cloud.service;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.client.discovery.simple.InstanceProperties;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryProperties;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.shapes.ShapeChecks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The service shape when the inventory's last instance leaves discovery (it deregistered): Spring
 * Cloud's real simple discovery and its load balancer without a cache (so that it sees the
 * instances as discovery has them at each call). The inventory is known by its calls only (no
 * {@code health_url}), so what the service's calls to it tell its breaker is all the evidence.
 * The load balancer fails such a call before any connection: the route that requires the
 * inventory answers its declared fallback, marked, from the first call that found no instance,
 * not an error.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:calls-only-manifest.yaml",
				"spring.cloud.loadbalancer.cache.enabled=false" })
class ServiceWithoutInstancesTests {

	private static final LoopbackDependency inventory = LoopbackDependency.start();

	@LocalServerPort
	int port;

	@Autowired
	SimpleDiscoveryProperties discovery;

	@DynamicPropertySource
	static void instances(DynamicPropertyRegistry registry) {
		registry.add("spring.cloud.discovery.client.simple.instances.inventory[0].uri", inventory::url);
	}

	@AfterAll
	static void stopInstances() {
		inventory.close();
	}

	@Test
	void aServiceWhoseLastInstanceLeftGetsTheRouteThatRequiresItItsDeclaredFallback() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			HttpResponse<String> live = checks.get("/api/stock");
			assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
			assertThat(live.headers().firstValue("X-Degraded")).isEmpty();
		});
		Map<String, List<InstanceProperties>> instances = new LinkedHashMap<>(this.discovery.getInstances());
		instances.remove("inventory");
		this.discovery.setInstances(instances);
		HttpResponse<String> first = checks.get("/api/stock");
		assertThat(first.headers().firstValue("X-Degraded")).as(first.statusCode() + " " + first.body())
			.hasValue("true");
		assertThat(first.body()).isEqualTo("{\"source\":\"degraded\",\"stock\":[]}");
		checks.assertFallbackFromTheFirstFailedCalls("/api/stock", "enhanced");
		await().atMost(Duration.ofSeconds(10)).until(() -> checks.dependencyState("inventory").equals("FAILED"));
	}

}
