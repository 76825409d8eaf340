package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

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

	@Test
	void theTimeoutsOfSpringsFactoriesThatTheStarterSetsPerRequestAreRegistered() {
		RuntimeHints hints = new RuntimeHints();
		new DegradationRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(JdkClientHttpRequestFactory.class, "readTimeout"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onFieldAccess(SimpleClientHttpRequestFactory.class, "connectTimeout")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(SimpleClientHttpRequestFactory.class, "readTimeout"))
			.accepts(hints);
	}

}
