package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hostile-caller suite on Spring MVC with the Actuator on a separate management port.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"management.server.port=0",
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted", "degradation.priority.enabled=true" })
class ServletHostileCallerOnManagementPortTests extends HostileCallerTests {

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
