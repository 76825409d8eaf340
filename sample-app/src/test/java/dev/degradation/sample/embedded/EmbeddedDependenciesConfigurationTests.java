package dev.degradation.sample.embedded;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link EmbeddedDependencies} bean: present only when a server was started, and the server
 * stopped with the context.
 */
class EmbeddedDependenciesConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(EmbeddedDependenciesConfiguration.class);

	@Test
	void whenDependenciesWereStartedTheBeanExposesThemAndClosingTheContextStopsThem() {
		DependencyServer server = DependencyServer.start();
		try {
			this.contextRunner
				.withInitializer((context) -> context.getEnvironment()
					.getPropertySources()
					.addLast(new EmbeddedDependenciesPropertySource(server)))
				.run((context) -> {
					assertThat(context).hasSingleBean(EmbeddedDependencies.class);
					assertThat(context.getBean(EmbeddedDependencies.class).server()).isSameAs(server);
					assertThat(server.isStopped()).isFalse();
				});
			assertThat(server.isStopped()).isTrue();
		}
		finally {
			server.stop();
		}
	}

	@Test
	void whenNoDependencyWasStartedThereIsNoBean() {
		this.contextRunner.withPropertyValues("sample.dependencies.url=http://127.0.0.1:9")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedDependencies.class));
	}

}
