package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The resources a native image needs are registered, through {@code META-INF/spring/aot.factories}
 * as Spring's AOT processing finds them.
 */
class DegradationRuntimeHintsTests {

	@Test
	void theManifestAndTheStartersOwnResourcesAreRegistered() {
		RuntimeHints hints = new RuntimeHints();
		SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)
			.forEach((registrar) -> registrar.registerHints(hints, getClass().getClassLoader()));
		assertThat(RuntimeHintsPredicates.resource().forResource("degradation-manifest.yaml")).accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/degradation/degradation-manifest.schema.json"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/degradation/ui/index.html")).accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("other.yaml")).rejects(hints);
	}

}
