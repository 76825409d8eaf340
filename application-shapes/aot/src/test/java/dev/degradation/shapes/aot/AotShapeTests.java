package dev.degradation.shapes.aot;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.fixture.LoopbackDependency;
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
	void theApplicationRunsFromTheCodeGeneratedAheadOfTime() {
		// A bean registered by generated code is created by the instance supplier process-aot wrote;
		// the same bean registered at run time from its @Bean method has none. The engine is the
		// starter's own bean, so this holds only when the starter's generated code was used.
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		String[] engines = beanFactory.getBeanNamesForType(DegradationEngine.class);
		assertThat(engines).hasSize(1);
		BeanDefinition definition = beanFactory.getMergedBeanDefinition(engines[0]);
		assertThat(definition).isInstanceOf(RootBeanDefinition.class);
		assertThat(((RootBeanDefinition) definition).getInstanceSupplier())
			.as("instance supplier of the starter's engine, generated ahead of time")
			.isNotNull();
		// Auto-configuration was not evaluated at run time: its conditions were settled at build time.
		assertThat(ConditionEvaluationReport.get(beanFactory).getConditionAndOutcomesBySource().keySet())
			.noneMatch((source) -> source.startsWith("dev.degradation"));
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
