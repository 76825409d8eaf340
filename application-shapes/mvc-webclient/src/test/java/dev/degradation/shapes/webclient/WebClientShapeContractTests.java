package dev.degradation.shapes.webclient;

import org.junit.jupiter.api.AfterAll;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.test.contract.DegradationContractTests;

/**
 * The shape's manifest as the contract tests generated from it, against the running application:
 * every route, annotated and functional, at every level. The functional route calls its dependency,
 * so the dependency runs here too.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WebClientShapeContractTests extends DegradationContractTests {

	private static final LoopbackDependency inventory = LoopbackDependency.start();

	@DynamicPropertySource
	static void dependency(DynamicPropertyRegistry registry) {
		registry.add("shape.inventory.url", inventory::url);
	}

	@AfterAll
	static void stopDependency() {
		inventory.close();
	}

}
