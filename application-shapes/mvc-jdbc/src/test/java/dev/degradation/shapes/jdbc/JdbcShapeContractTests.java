package dev.degradation.shapes.jdbc;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.shapes.ShapeChecks;
import dev.degradation.test.contract.DegradationContractTests;

/**
 * The shape's manifest, pressure rules and all, as the contract tests generated from it and as
 * {@code walk} reads it, against the running application: the rules change nothing of either.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class JdbcShapeContractTests extends DegradationContractTests {

	@LocalServerPort
	int port;

	@Test
	void theEndpointSaysEveryRouteIsHandledAndWalkPasses() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		checks.assertEveryRouteHandled(2);
		checks.assertWalkPasses();
	}

}
