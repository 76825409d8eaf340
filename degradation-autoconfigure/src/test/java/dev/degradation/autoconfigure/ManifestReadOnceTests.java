package dev.degradation.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

import dev.degradation.client.DependencyGuards;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.reload.ManifestReloader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifest's file is opened once while the application starts, whatever is configured around
 * it (the engine, the web stack, the endpoint, meters, health, guarded clients): every part that
 * needs it, the reloader included, is given what that one reading loaded.
 */
class ManifestReadOnceTests {

	private final AtomicInteger opened = new AtomicInteger();

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
				DegradationServletAutoConfiguration.class, DegradationEndpointAutoConfiguration.class,
				DegradationMetricsAutoConfiguration.class, DegradationHealthAutoConfiguration.class,
				DegradationClientAutoConfiguration.class))
		.withInitializer((context) -> context.addProtocolResolver((location, resourceLoader) -> location
			.startsWith("counted:") ? new CountedResource(location.substring("counted:".length())) : null))
		.withPropertyValues("degradation.manifest=counted:client/degradation-manifest.yaml",
				"degradation.probes.enabled=false", "stub.url=http://127.0.0.1:9",
				"management.endpoints.web.exposure.include=degradation");

	@Test
	void theManifestsFileIsOpenedOnceAtStartup() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(DegradationEngine.class)
				.hasSingleBean(ManifestReloader.class)
				.hasSingleBean(DependencyGuards.class);
			assertThat(this.opened).hasValue(1);
		});
	}

	/**
	 * A class path resource that counts how often it is opened.
	 */
	private final class CountedResource extends ClassPathResource {

		CountedResource(String path) {
			super(path, ManifestReadOnceTests.class.getClassLoader());
		}

		@Override
		public InputStream getInputStream() throws IOException {
			ManifestReadOnceTests.this.opened.incrementAndGet();
			return super.getInputStream();
		}

		@Override
		public Resource createRelative(String relativePath) {
			return new CountedResource(relativePath);
		}

	}

}
