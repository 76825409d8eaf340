package dev.degradation.shapes.cloud.gateway;

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
import org.springframework.cloud.client.discovery.simple.reactive.SimpleReactiveDiscoveryProperties;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.shapes.ShapeChecks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The gateway shape when a service's last instance leaves discovery (it deregistered, or was
 * never registered): Spring Cloud's real simple discovery, its load balancer without a cache (so
 * that it sees the instances as discovery has them at each call), and the routes'
 * {@code CircuitBreaker} filter. The catalog is known by its calls only (no {@code health_url}),
 * so what the gateway's calls to it tell its breaker is all the evidence. A route that requires
 * the catalog answers its declared fallback, marked, from the first call that found no instance,
 * not the application's circuit breaker's fallback unmarked; and the catalog's breaker hears of
 * the calls, so the catalog is reported failed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:calls-only-manifest.yaml",
				"spring.cloud.loadbalancer.cache.enabled=false" })
class GatewayServiceWithoutInstancesTests {

	private static final LoopbackDependency catalog = LoopbackDependency.start();

	private static final LoopbackDependency reviews = LoopbackDependency.start();

	@LocalServerPort
	int port;

	@Autowired
	SimpleDiscoveryProperties discovery;

	@Autowired
	SimpleReactiveDiscoveryProperties reactiveDiscovery;

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
	void aServiceWhoseLastInstanceLeftGetsTheRoutesThatRequireItTheirDeclaredFallback() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			HttpResponse<String> live = checks.get("/catalog/items");
			assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
			assertThat(live.headers().firstValue("X-Degraded")).isEmpty();
		});
		withoutInstancesOf("catalog");
		HttpResponse<String> first = checks.get("/catalog/items");
		assertThat(first.headers().firstValue("X-Degraded")).as(first.statusCode() + " " + first.body())
			.hasValue("true");
		assertThat(first.body()).isEqualTo("{\"source\":\"degraded\"}");
		checks.assertFallbackFromTheFirstFailedCalls("/catalog/items", "enhanced");
		await().atMost(Duration.ofSeconds(10)).until(() -> checks.dependencyState("catalog").equals("FAILED"));
		// A route the manifest does not name keeps the application's own fallback.
		HttpResponse<String> core = checks.get("/legacy/items");
		assertThat(core.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(core.body()).isEqualTo("{\"source\":\"application-fallback\"}");
	}

	/** Deregister every instance of a service, from the blocking and the reactive discovery. */
	private void withoutInstancesOf(String service) {
		Map<String, List<InstanceProperties>> blocking = new LinkedHashMap<>(this.discovery.getInstances());
		blocking.remove(service);
		this.discovery.setInstances(blocking);
		Map<String, List<InstanceProperties>> reactive = new LinkedHashMap<>();
		for (String known : blocking.keySet()) {
			reactive.put(known, this.reactiveDiscovery.getInstances(known));
		}
		this.reactiveDiscovery.setInstances(reactive);
	}

}
