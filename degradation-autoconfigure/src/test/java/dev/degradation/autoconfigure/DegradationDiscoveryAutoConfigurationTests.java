package dev.degradation.autoconfigure;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.client.discovery.composite.CompositeDiscoveryClientAutoConfiguration;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClientAutoConfiguration;
import org.springframework.cloud.commons.util.UtilAutoConfiguration;

import dev.degradation.discovery.ServiceIdVerification;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.monitor.HealthProbe;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.monitor.ServiceHealthSource;
import dev.degradation.monitor.ServiceInstances;
import dev.degradation.reload.ManifestReloader;
import dev.degradation.reload.ManifestReloader.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every condition of {@link DegradationDiscoveryAutoConfiguration} and what
 * {@link ServiceIdVerification} checks, with Spring Cloud's real simple discovery client: a
 * {@code health_url} naming a service by id is probed at the instances discovery lists; without
 * Spring Cloud, or without a discovery client, a manifest that names a service by id fails
 * startup saying why, and one that does not starts as before; a bare host name that discovery
 * knows as a service is warned about with the {@code lb://} to write (refused under strict).
 */
@ExtendWith(OutputCaptureExtension.class)
class DegradationDiscoveryAutoConfigurationTests {

	private static final String WITHOUT_DISCOVERY = "lb:// names a service by id and needs Spring Cloud's discovery "
			+ "client on the class path";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
				DegradationDiscoveryAutoConfiguration.class))
		.withPropertyValues("degradation.manifest=classpath:discovery/degradation-manifest.yaml",
				"degradation.probes.enabled=false");

	private final ApplicationContextRunner withDiscovery = this.runner
		.withConfiguration(AutoConfigurations.of(UtilAutoConfiguration.class,
				SimpleDiscoveryClientAutoConfiguration.class, CompositeDiscoveryClientAutoConfiguration.class))
		.withPropertyValues("spring.cloud.discovery.client.simple.instances.catalog[0].uri=http://127.0.0.1:9",
				"spring.cloud.discovery.client.simple.instances.degradation-test-inventory[0].uri=http://127.0.0.1:9");

	@Test
	void withDiscoveryAServiceNamedByIdIsProbedAtTheInstancesDiscoveryLists() {
		this.withDiscovery.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(ServiceInstances.class)
				.hasSingleBean(ServiceHealthSource.class);
			assertThat(context.getBean(ServiceInstances.class).instances("catalog"))
				.containsExactly(URI.create("http://127.0.0.1:9"));
			DegradationEngine engine = context.getBean(DegradationEngine.class);
			ProbeResult result = context.getBean(HealthProbe.class).probe(engine.manifest().dependencies().get(0));
			assertThat(result.healthy()).isFalse();
			assertThat(result.detail()).startsWith("no instance of catalog answered healthy: 127.0.0.1:9 ");
		});
	}

	@Test
	void withoutSpringCloudAServiceNamedByIdFailsStartupSayingWhy() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.cloud.client")).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.isInstanceOf(InvalidManifestException.class)
				.hasMessageContaining("dependencies.catalog.health_url: 'lb://catalog/healthz': " + WITHOUT_DISCOVERY)
				.hasMessageContaining("dependencies.catalog.base_url: 'lb://catalog': " + WITHOUT_DISCOVERY);
		});
	}

	@Test
	void withSpringCloudButNoDiscoveryClientAServiceNamedByIdFailsStartup() {
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining(WITHOUT_DISCOVERY);
		});
	}

	@Test
	void withoutSpringCloudAManifestThatNamesNoServiceStartsAsBefore() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.cloud.client"))
			.withPropertyValues("catalog.health-url=http://127.0.0.1:9/healthz", "catalog.base-url=http://127.0.0.1:9")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ServiceInstances.class)
				.hasSingleBean(ServiceIdVerification.class));
	}

	@Test
	void aBareHostNameThatDiscoveryKnowsAsAServiceIsWarnedAboutWithTheServiceUrlToWrite(CapturedOutput output) {
		this.withDiscovery.withPropertyValues("inventory.base-url=http://degradation-test-inventory/stock")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("dependencies.inventory.base_url: 'http://degradation-test-inventory/stock' "
						+ "names the host 'degradation-test-inventory', which does not resolve, while discovery knows a "
						+ "service 'degradation-test-inventory': write lb://degradation-test-inventory/stock");
			});
	}

	@Test
	void underStrictVerificationABareHostNameThatDiscoveryKnowsFailsStartup() {
		this.withDiscovery
			.withPropertyValues("inventory.base-url=http://degradation-test-inventory", "degradation.verify=strict")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.isInstanceOf(InvalidManifestException.class)
					.hasMessageContaining("write lb://degradation-test-inventory");
			});
	}

	@Test
	void aHostNameDiscoveryDoesNotKnowIsNoConcernOfDiscovery(CapturedOutput output) {
		this.withDiscovery
			.withPropertyValues("inventory.base-url=http://degradation-test-warehouse", "degradation.verify=strict")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("degradation-test-warehouse");
			});
	}

	@Test
	void withoutDiscoveryAReloadThatNamesAServiceByIdIsRefusedAndTheActiveManifestStays(@TempDir Path directory)
			throws IOException {
		Path file = directory.resolve("degradation-manifest.yaml");
		Files.writeString(file, manifest("http://127.0.0.1:9"));
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.cloud.client"))
			.withPropertyValues("degradation.manifest=file:" + file)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Files.writeString(file, manifest("lb://catalog"));
				Outcome outcome = context.getBean(ManifestReloader.class).reload("test");
				assertThat(outcome.status()).isEqualTo(Outcome.Status.REFUSED);
				assertThat(outcome.problems()).singleElement()
					.satisfies((problem) -> assertThat(problem.toString()).contains("degradation-manifest.yaml:2:")
						.contains("dependencies.catalog.base_url: 'lb://catalog': " + WITHOUT_DISCOVERY));
				assertThat(context.getBean(DegradationEngine.class).manifest().dependencies().get(0).baseUrl())
					.isEqualTo(URI.create("http://127.0.0.1:9"));
			});
	}

	@Test
	void aReloadThatNamesAServiceByAHostThatDoesNotResolveIsWarnedAboutOrRefusedUnderStrict(@TempDir Path directory,
			CapturedOutput output) throws IOException {
		Path file = directory.resolve("degradation-manifest.yaml");
		Files.writeString(file, manifest("http://127.0.0.1:9"));
		this.withDiscovery.withPropertyValues("degradation.manifest=file:" + file).run((context) -> {
			Files.writeString(file, manifest("http://degradation-test-inventory"));
			assertThat(context.getBean(ManifestReloader.class).reload("test").status())
				.isEqualTo(Outcome.Status.RELOADED);
			assertThat(output).contains("names the host 'degradation-test-inventory', which does not resolve")
				.contains("refuse such a manifest instead");
		});
		Files.writeString(file, manifest("http://127.0.0.1:9"));
		this.withDiscovery.withPropertyValues("degradation.manifest=file:" + file, "degradation.verify=strict")
			.run((context) -> {
				Files.writeString(file, manifest("http://degradation-test-inventory"));
				Outcome outcome = context.getBean(ManifestReloader.class).reload("test");
				assertThat(outcome.status()).isEqualTo(Outcome.Status.REFUSED);
				assertThat(outcome.problems()).singleElement()
					.satisfies((problem) -> assertThat(problem.toString())
						.contains("write lb://degradation-test-inventory"));
				assertThat(context.getBean(DegradationEngine.class).manifest().dependencies().get(0).baseUrl())
					.isEqualTo(URI.create("http://127.0.0.1:9"));
			});
	}

	/** A manifest of one dependency called at {@code baseUrl}. */
	private static String manifest(String baseUrl) {
		return """
				dependencies:
				  catalog:
				    base_url: %s
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/catalog, method: GET, fallback: drop, requires: [catalog] }
				""".formatted(baseUrl);
	}

}
