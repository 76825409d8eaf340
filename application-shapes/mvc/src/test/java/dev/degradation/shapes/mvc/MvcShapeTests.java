package dev.degradation.shapes.mvc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.shapes.ShapeChecks;

/**
 * A Spring MVC application (no WebFlux, no Reactor) with the starter, on a real server with real probes of a loopback dependency: it
 * starts, its endpoint says every route (annotated and functional) is handled, walk passes, and
 * a route is shed by simulation and, last, by its failed dependency.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MvcShapeTests {

	private static final LoopbackDependency inventory = LoopbackDependency.start();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void dependency(DynamicPropertyRegistry registry) {
		registry.add("shape.inventory.url", inventory::url);
	}

	@AfterAll
	static void stopDependency() {
		inventory.close();
	}

	@Test
	@Order(1)
	void theEndpointSaysEveryRouteIsHandledAndWalkPasses() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		checks.assertEveryRouteHandled(2);
		checks.assertWalkPasses();
	}

	@Test
	@Order(2)
	void aRouteIsShedBySimulation() {
		ShapeChecks.onPort(this.port).assertShedBySimulation();
	}

	@Test
	@Order(3)
	void aRouteIsShedByItsFailedDependency() {
		ShapeChecks.onPort(this.port).assertShedByFailedDependency(inventory);
	}

}
