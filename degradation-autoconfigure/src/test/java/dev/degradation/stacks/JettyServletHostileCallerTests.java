package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hostile-caller suite on Spring MVC served by Jetty, the Actuator on the application's port.
 * Run by the {@code jetty} surefire execution.
 */
@EnabledIfSystemProperty(named = JettyTests.ON_JETTY, matches = "true")
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"spring.autoconfigure.exclude=" + JettyTests.NOT_JETTY_SERVLET,
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted", "degradation.priority.enabled=true" })
class JettyServletHostileCallerTests extends HostileCallerTests {

	static final StackBehaviourTests.Fixture fixture = StackBehaviourTests.Fixture.start();

	@DynamicPropertySource
	static void dependencies(DynamicPropertyRegistry registry) {
		fixture.register(registry);
	}

	@AfterAll
	static void stop() {
		fixture.close();
	}

}
