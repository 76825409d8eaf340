package dev.degradation.shapes.aot;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.aot.AotDetector;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.degradation.shapes.LoopbackDependency;
import dev.degradation.shapes.ShapeChecks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebFlux application as its build processed it ahead of time, started from the generated
 * code on the JVM ({@code spring.aot.enabled=true}, as a native image starts): the starter loads,
 * its endpoint says every route (annotated and functional) is handled, walk passes, and a route is
 * shed by simulation and, last, by its failed dependency.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AotShapeTests {

	private static final LoopbackDependency inventory = LoopbackDependency.start();

	private static ConfigurableApplicationContext context;

	private static int port;

	@BeforeAll
	static void startFromTheGeneratedCode() {
		System.setProperty(AotDetector.AOT_ENABLED, "true");
		try {
			SpringApplication application = new SpringApplication(AotShapeApplication.class);
			// The generated initializer is found by the main class's name, which a test's stack
			// would otherwise give as the test runner's.
			application.setMainApplicationClass(AotShapeApplication.class);
			context = application.run("--server.port=0", "--shape.inventory.url=" + inventory.url());
		}
		finally {
			System.clearProperty(AotDetector.AOT_ENABLED);
		}
		port = ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
		inventory.close();
	}

	@Test
	@Order(1)
	void theApplicationRunsFromTheCodeGeneratedAheadOfTime() throws Exception {
		// The initializer process-aot generated: without it, spring.aot.enabled=true fails to start.
		assertThat(Class.forName(AotShapeApplication.class.getName() + "__ApplicationContextInitializer")).isNotNull();
	}

	@Test
	@Order(2)
	void theEndpointSaysEveryRouteIsHandledAndWalkPasses() {
		ShapeChecks checks = ShapeChecks.onPort(port);
		checks.assertEveryRouteHandled(2);
		checks.assertWalkPasses();
	}

	@Test
	@Order(3)
	void aRouteIsShedBySimulation() {
		ShapeChecks.onPort(port).assertShedBySimulation();
	}

	@Test
	@Order(4)
	void aRouteIsShedByItsFailedDependency() {
		ShapeChecks.onPort(port).assertShedByFailedDependency(inventory);
	}

}
