package dev.degradation.sample.embedded;

import java.time.Duration;
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
	void stopStartedDependencies() {
		EmbeddedDependencies.of(this.environment).ifPresent(EmbeddedDependencies::stop);
	}

	@Test
	void startsEveryDependencyAndExposesEachUrl() {
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		EmbeddedDependencies dependencies = EmbeddedDependencies.of(this.environment).orElseThrow();
		assertThat(dependencies.isStopped()).isFalse();
		for (String name : EmbeddedDependencies.NAMES) {
			String url = dependencies.dependency(name).url().toString();
			assertThat(this.environment.getProperty("sample.dependencies." + name + ".url")).isEqualTo(url)
				.startsWith("http://127.0.0.1:");
			assertThat(this.environment.resolveRequiredPlaceholders("${sample.dependencies." + name + ".url}/healthz"))
				.isEqualTo(url + "/healthz");
		}
		assertThat(this.environment.getProperty("sample.dependencies.unknown.url")).isNull();
	}

	@Test
	void startsOnlyTheDependenciesWhoseUrlIsNotSet() {
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("test",
					Map.of("sample.dependencies.recommendations-api.url", "http://127.0.0.1:9")));
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		EmbeddedDependencies dependencies = EmbeddedDependencies.of(this.environment).orElseThrow();
		assertThat(dependencies.dependencies()).extracting(EmbeddedDependency::name)
			.containsExactly("analytics-collector", "personalization-service");
		assertThat(this.environment.getProperty("sample.dependencies.recommendations-api.url"))
			.isEqualTo("http://127.0.0.1:9");
	}

	@Test
	void startsNothingWhenEveryUrlIsSet() {
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("test",
					Map.of("sample.dependencies.recommendations-api.url", "http://127.0.0.1:9",
							"sample.dependencies.analytics-collector.url", "http://127.0.0.1:9",
							"sample.dependencies.personalization-service.url", "http://127.0.0.1:9")));
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		assertThat(EmbeddedDependencies.of(this.environment)).isEmpty();
	}

	@Test
	void startsOnceWhenRunTwiceOnOneEnvironment() {
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		EmbeddedDependencies first = EmbeddedDependencies.of(this.environment).orElseThrow();
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		assertThat(EmbeddedDependencies.of(this.environment)).containsSame(first);
	}

	@Test
	void slowDelayIsThreeSecondsUnlessConfigured() {
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		assertThat(EmbeddedDependencies.of(this.environment).orElseThrow().dependencies())
			.extracting(EmbeddedDependency::slowDelay)
			.containsOnly(Duration.ofSeconds(3));
	}

	@Test
	void slowDelayCanBeConfigured() {
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("sample.embedded.slow-delay", "750ms")));
		this.postProcessor.postProcessEnvironment(this.environment, this.application);
		assertThat(EmbeddedDependencies.of(this.environment).orElseThrow().dependencies())
			.extracting(EmbeddedDependency::slowDelay)
			.containsOnly(Duration.ofMillis(750));
	}

	@Test
	void runsAfterTheConfigurationFilesAreLoaded() {
		assertThat(this.postProcessor.getOrder()).isGreaterThan(ConfigDataEnvironmentPostProcessor.ORDER);
	}

}
