package dev.degradation.monitor;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.CallBudget;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.HealthCheck;
import dev.degradation.manifest.Position;
import dev.degradation.testapp.FaultyDependency.Mode;
import dev.degradation.testapp.FaultyDependency;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code health_url: lb://SERVICE-ID/path} is probed at the instances discovery knows at each
 * probe, on real HTTP dependencies on loopback: one healthy instance makes the probe healthy (the
 * service can serve), none healthy fails it with each instance's outcome, no instance at all fails
 * it saying so, instances that all answer 404 are no evidence, a hanging instance spends the one
 * budget of the probe, and the instances come and go between probes.
 */
class ServiceHealthSourceTests {

	private static final HealthCheck HEALTH_CHECK = new HealthCheck(Duration.ofSeconds(1), Duration.ofMillis(1000),
			Duration.ofSeconds(10), 3, 0.4, 0.15);

	private final TestClock clock = TestClock.at(Instant.parse("2026-12-01T10:00:00Z"));

	private final Map<String, List<URI>> registered = new ConcurrentHashMap<>();

	private final List<FaultyDependency> instances = new ArrayList<>();

	private final ServiceHealthSource source = new ServiceHealthSource(new ServiceInstances() {

		@Override
		public List<URI> instances(String serviceId) {
			return ServiceHealthSourceTests.this.registered.getOrDefault(serviceId, List.of());
		}

		@Override
		public List<String> services() {
			return List.copyOf(ServiceHealthSourceTests.this.registered.keySet());
		}

	}, new HttpHealthProbe(this.clock), this.clock);

	private final Dependency catalog = new Dependency("catalog", URI.create("lb://catalog/healthz"), HEALTH_CHECK,
			new Position(1, 1), null, URI.create("lb://catalog"), CallBudget.standard(Duration.ofSeconds(1)));

	@AfterEach
	void stop() {
		this.instances.forEach(FaultyDependency::close);
	}

	@Test
	void supportsOnlyAHealthUrlThatNamesAService() {
		assertThat(this.source.supports(this.catalog)).isTrue();
		assertThat(this.source.supports(new Dependency("other", URI.create("http://127.0.0.1:1/healthz"),
				HEALTH_CHECK, new Position(1, 1)))).isFalse();
		assertThat(DependencyHealthSource.healthUrl((dependency) -> null).supports(this.catalog)).isFalse();
	}

	@Test
	void oneHealthyInstanceMakesTheServiceHealthy() {
		register(instance(Mode.REFUSING), instance(Mode.FAILING), instance(Mode.HEALTHY));
		ProbeResult result = this.source.probe(this.catalog);
		assertThat(result.healthy()).isTrue();
		assertThat(result.outcome()).isEqualTo(ProbeResult.OK);
		assertThat(result.detail()).contains("answered HTTP 200 (3 instances)");
	}

	@Test
	void noHealthyInstanceFailsTheProbeWithEachInstancesOutcome() {
		URI refusing = instance(Mode.REFUSING);
		URI failing = instance(Mode.FAILING);
		register(refusing, failing);
		ProbeResult result = this.source.probe(this.catalog);
		assertThat(result.healthy()).isFalse();
		assertThat(result.counts()).isTrue();
		assertThat(result.outcome()).isEqualTo(ProbeResult.REFUSED);
		assertThat(result.detail()).startsWith("no instance of catalog answered healthy: ")
			.contains(refusing.getRawAuthority() + " refused")
			.contains(failing.getRawAuthority() + " http_5xx: HTTP 500");
	}

	@Test
	void aServiceWithoutInstancesIsAFailedProbeThatSaysSo() {
		ProbeResult result = this.source.probe(this.catalog);
		assertThat(result.healthy()).isFalse();
		assertThat(result.counts()).isTrue();
		assertThat(result.outcome()).isEqualTo(ProbeResult.NO_INSTANCE);
		assertThat(result.detail()).isEqualTo("no instance of catalog in discovery");
	}

	@Test
	void instancesThatAllServeNoHealthPathAreNoEvidence() {
		register(instance(Mode.NOT_FOUND), instance(Mode.NOT_FOUND));
		ProbeResult result = this.source.probe(this.catalog);
		assertThat(result.healthy()).isFalse();
		assertThat(result.counts()).isFalse();
	}

	@Test
	void aHangingInstanceSpendsTheOneBudgetOfTheProbe() {
		URI healthy = instance(Mode.HEALTHY);
		register(instance(Mode.HANGING), healthy);
		ProbeResult result = this.source.probe(this.catalog);
		assertThat(result.healthy()).isFalse();
		assertThat(result.outcome()).isEqualTo(ProbeResult.TIMEOUT);
		assertThat(result.detail()).contains(healthy.getRawAuthority() + " not probed (no time left)");
		assertThat(result.latency()).isLessThan(HEALTH_CHECK.timeout().plusMillis(500));
	}

	@Test
	void eachProbeAsksDiscoveryAnewAsInstancesComeAndGo() {
		URI healthy = instance(Mode.HEALTHY);
		register(healthy);
		assertThat(this.source.probe(this.catalog).healthy()).isTrue();
		register(instance(Mode.REFUSING));
		assertThat(this.source.probe(this.catalog).healthy()).isFalse();
		register();
		assertThat(this.source.probe(this.catalog).outcome()).isEqualTo(ProbeResult.NO_INSTANCE);
		register(healthy);
		assertThat(this.source.probe(this.catalog).healthy()).isTrue();
	}

	@Test
	void aDiscoveryThatFailsIsAFailedProbe() {
		ServiceHealthSource failing = new ServiceHealthSource(new ServiceInstances() {

			@Override
			public List<URI> instances(String serviceId) {
				throw new IllegalStateException("registry unreachable");
			}

			@Override
			public List<String> services() {
				return List.of();
			}

		}, new HttpHealthProbe(this.clock), this.clock);
		ProbeResult result = failing.probe(this.catalog);
		assertThat(result.healthy()).isFalse();
		assertThat(result.outcome()).isEqualTo(ProbeResult.ERROR);
		assertThat(result.detail()).contains("registry unreachable");
	}

	private void register(URI... addresses) {
		this.registered.put("catalog", List.of(addresses));
	}

	private URI instance(Mode mode) {
		FaultyDependency instance = FaultyDependency.start("catalog");
		this.instances.add(instance);
		instance.set(mode);
		return URI.create(instance.address());
	}

}
