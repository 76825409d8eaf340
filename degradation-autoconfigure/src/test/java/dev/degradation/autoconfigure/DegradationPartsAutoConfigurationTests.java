package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.degradation.parts.DegradedPartsAdvice;
import dev.degradation.parts.PartGatherer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conditions of the partial answers' auto-configuration.
 */
class DegradationPartsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationPartsAutoConfiguration.class));

	@Test
	void aWebApplicationGetsTheGathererAndTheAdviceWithoutAManifest() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(PartGatherer.class)
			.hasSingleBean(DegradedPartsAdvice.class));
	}

	@Test
	void withDegradationDisabledTheGathererStaysForTheHandlersThatCallIt() {
		this.runner.withPropertyValues("degradation.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(PartGatherer.class));
	}

	@Test
	void aNonWebApplicationGetsNoGatherer() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DegradationPartsAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(PartGatherer.class));
	}

}
