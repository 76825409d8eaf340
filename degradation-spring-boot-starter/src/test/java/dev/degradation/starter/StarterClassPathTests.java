package dev.degradation.starter;

import org.junit.jupiter.api.Test;

import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the starter puts on a Spring MVC application's class path: the WebClient guard's
 * Resilience4j operators, so that a WebFlux application needs no further dependency, and no
 * Reactor, so that an application without WebFlux does not get it from the starter.
 */
class StarterClassPathTests {

	private final ClassLoader classLoader = getClass().getClassLoader();

	@Test
	void theWebClientGuardsOperatorsComeWithTheStarter() {
		assertThat(ClassUtils.isPresent("io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator",
				this.classLoader))
			.isTrue();
	}

	@Test
	void aSpringMvcApplicationGetsNoReactorFromTheStarter() {
		assertThat(ClassUtils.isPresent("reactor.core.publisher.Flux", this.classLoader)).isFalse();
		assertThat(ClassUtils.isPresent("io.github.resilience4j.bulkhead.Bulkhead", this.classLoader)).isFalse();
	}

}
