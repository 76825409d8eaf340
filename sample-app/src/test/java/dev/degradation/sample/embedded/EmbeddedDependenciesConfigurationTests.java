package dev.degradation.sample.embedded;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link EmbeddedDependencies} bean: present only when dependencies were started, and
 * stopped with the context.
 */
class EmbeddedDependenciesConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(EmbeddedDependenciesConfiguration.class);

	@Test
	void whenDependenciesWereStartedTheBeanIsThemAndClosingTheContextStopsThem() {
		EmbeddedDependencies dependencies = EmbeddedDependencies.start(Duration.ofSeconds(1));
		try {
			this.contextRunner
				.withInitializer((context) -> context.getEnvironment()
					.getPropertySources()
					.addLast(new EmbeddedDependenciesPropertySource(dependencies)))
				.run((context) -> {
					assertThat(context).getBean(EmbeddedDependencies.class).isSameAs(dependencies);
					assertThat(dependencies.isStopped()).isFalse();
				});
			assertThat(dependencies.isStopped()).isTrue();
		}
		finally {
			dependencies.stop();
		}
	}

	@Test
	void whenNoDependencyWasStartedThereIsNoBean() {
		this.contextRunner.withPropertyValues("sample.dependencies.recommendations-api.url=http://127.0.0.1:9")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedDependencies.class));
	}

}
