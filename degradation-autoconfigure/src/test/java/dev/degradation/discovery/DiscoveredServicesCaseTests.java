package dev.degradation.discovery;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.cloud.client.discovery.simple.InstanceProperties;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClient;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryProperties;

import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.manifest.CallBudget;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.HealthCheck;
import dev.degradation.manifest.Position;
import dev.degradation.monitor.HttpHealthProbe;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.monitor.ServiceHealthSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A manifest's {@code lb://SERVICE-ID} that differs from discovery's id only in case, with Spring
 * Cloud's real simple discovery (which compares ids with case) and a real instance on loopback:
 * the guards match the service's calls without case, so its probe must find the same instances,
 * not fail it for want of an instance while the load balancer serves the service.
 */
class DiscoveredServicesCaseTests {

	private static final HealthCheck HEALTH_CHECK = new HealthCheck(Duration.ofSeconds(1), Duration.ofMillis(1000),
			Duration.ofSeconds(10), 3, 0.4, 0.15);

	private final LoopbackDependency instance = LoopbackDependency.start();

	@AfterEach
	void stop() {
		this.instance.close();
	}

	@Test
	void aServiceIdThatDiffersOnlyInCaseIsProbedAtTheServicesInstances() {
		SimpleDiscoveryProperties properties = new SimpleDiscoveryProperties();
		InstanceProperties registered = new InstanceProperties();
		registered.setUri(URI.create(this.instance.url()));
		properties.setInstances(Map.of("catalog", List.of(registered)));
		properties.afterPropertiesSet();
		DiscoveredServices discovery = DiscoveredServices.of(new SimpleDiscoveryClient(properties));
		Dependency catalog = new Dependency("catalog", URI.create("lb://Catalog/healthz"), HEALTH_CHECK,
				new Position(1, 1), null, URI.create("lb://Catalog"), CallBudget.standard(Duration.ofSeconds(1)));
		ProbeResult result = new ServiceHealthSource(discovery, new HttpHealthProbe(Clock.systemUTC()),
				Clock.systemUTC())
			.probe(catalog);
		assertThat(result.healthy()).as(result.detail()).isTrue();
		assertThat(discovery.instances("Catalog")).containsExactly(URI.create(this.instance.url()));
	}

}
