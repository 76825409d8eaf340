package dev.degradation.shapes.aot;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.aot.BeanInstanceSupplier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigUtils;
import org.springframework.context.support.GenericApplicationContext;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.shapes.ShapeChecks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebFlux application as its build processed it ahead of time, started from the generated
 * code on the JVM ({@code spring.aot.enabled=true}, as a native image starts): the context is the
 * one Boot creates for generated code only, the starter's beans are those the generated
 * initializer registers, each created by generated code, and the starter loads,
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
			assertThat(AotDetector.useGeneratedArtifacts()).isTrue();
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
		// Boot creates a context without annotation processing (no @Configuration parsing, no
		// component scan, no auto-configuration import) only when it uses generated artifacts: on
		// its own such a context would hold none of the application's or the starter's beans.
		assertThat(context).isExactlyInstanceOf(ReactiveWebServerApplicationContext.class);
		assertThat(context.containsBeanDefinition(AnnotationConfigUtils.CONFIGURATION_ANNOTATION_PROCESSOR_BEAN_NAME))
			.isFalse();
		// The starter's beans are those the generated initializer registers: applied alone to an
		// empty context, it registers every one of them, each with the instance supplier that
		// process-aot wrote (a bean registered from its @Bean method at run time has none).
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		List<String> starterBeans = Arrays.stream(beanFactory.getBeanDefinitionNames())
			.filter((name) -> isStarters(beanFactory.getType(name, false)))
			.toList();
		assertThat(starterBeans).hasSizeGreaterThan(5);
		String[] engines = beanFactory.getBeanNamesForType(DegradationEngine.class);
		assertThat(engines).singleElement().isIn(starterBeans);
		String engine = engines[0];
		GenericApplicationContext generated = new GenericApplicationContext();
		generatedInitializer().initialize(generated);
		assertThat(generated.getBeanDefinitionNames()).contains(starterBeans.toArray(String[]::new));
		for (String name : starterBeans) {
			assertThat(((RootBeanDefinition) beanFactory.getMergedBeanDefinition(name)).getInstanceSupplier())
				.as("instance supplier of the starter's bean '%s'", name)
				.isNotNull();
		}
		// The engine, a @Bean method's, is created by the supplier generated for that method.
		assertThat(((RootBeanDefinition) beanFactory.getMergedBeanDefinition(engine)).getInstanceSupplier())
			.isInstanceOf(BeanInstanceSupplier.class);
		// Auto-configuration was not evaluated at run time: its conditions were settled at build time.
		assertThat(ConditionEvaluationReport.get(beanFactory).getConditionAndOutcomesBySource().keySet())
			.noneMatch((source) -> source.startsWith("dev.degradation"));
	}

	@SuppressWarnings("unchecked")
	private static ApplicationContextInitializer<GenericApplicationContext> generatedInitializer() throws Exception {
		Class<?> initializer = Class.forName(AotShapeApplication.class.getName() + "__ApplicationContextInitializer");
		return (ApplicationContextInitializer<GenericApplicationContext>) initializer.getDeclaredConstructor()
			.newInstance();
	}

	private static boolean isStarters(Class<?> type) {
		return type != null && type.getName().startsWith("dev.degradation.")
				&& !type.getName().startsWith("dev.degradation.shapes.");
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
