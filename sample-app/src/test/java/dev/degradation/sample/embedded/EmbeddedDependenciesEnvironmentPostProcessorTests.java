package dev.degradation.sample.embedded;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the embedded dependencies start, and what the environment then holds.
 */
class EmbeddedDependenciesEnvironmentPostProcessorTests {

	private final EmbeddedDependenciesEnvironmentPostProcessor postProcessor = new EmbeddedDependenciesEnvironmentPostProcessor(
			new DeferredLogs());

	private final StandardEnvironment environment = new StandardEnvironment();

	private final SpringApplication application = new SpringApplication();

	@AfterEach
	void stopStartedServer() {
		if (EmbeddedDependencies.startedFor(this.environment)) {
			EmbeddedDependencies.of(this.environment).server().stop();
		}
	}

	@Test
	void startsTheDependenciesAndExposesTheirUrl() {
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		DependencyServer server = EmbeddedDependencies.of(this.environment).server();
		assertThat(server.isStopped()).isFalse();
		assertThat(this.environment.getProperty("sample.dependencies.url")).isEqualTo(server.baseUrl().toString())
			.startsWith("http://127.0.0.1:");
		assertThat(this.environment.resolveRequiredPlaceholders("${sample.dependencies.url}/recommendations-api/healthz"))
			.isEqualTo(server.baseUrl() + "/recommendations-api/healthz");
	}

	@Test
	void startsNothingWhenTheUrlIsAlreadySet() {
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("sample.dependencies.url", "http://127.0.0.1:9")));
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		assertThat(EmbeddedDependencies.startedFor(this.environment)).isFalse();
		assertThat(this.environment.getProperty("sample.dependencies.url")).isEqualTo("http://127.0.0.1:9");
	}

	@Test
	void startsOneServerWhenRunTwiceOnOneEnvironment() {
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		DependencyServer first = EmbeddedDependencies.of(this.environment).server();
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		assertThat(EmbeddedDependencies.of(this.environment).server()).isSameAs(first);
	}

	@Test
	void runsAfterTheConfigurationFilesAreLoaded() {
		assertThat(this.postProcessor.getOrder())
			.isGreaterThan(ConfigDataEnvironmentPostProcessor.ORDER);
	}

}
