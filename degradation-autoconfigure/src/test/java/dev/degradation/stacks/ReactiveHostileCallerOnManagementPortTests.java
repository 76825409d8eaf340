package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hostile-caller suite on WebFlux with the Actuator on a separate management port. The
 * module's test class path holds Tomcat beside Reactor Netty, and Boot's two reactive management
 * context factories then clash; no WebFlux application has both, so Tomcat's is left out.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"management.server.port=0",
				"spring.autoconfigure.exclude=org.springframework.boot.tomcat.autoconfigure.actuate.web.server."
						+ "TomcatReactiveManagementContextAutoConfiguration",
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted", "degradation.priority.enabled=true" })
class ReactiveHostileCallerOnManagementPortTests extends HostileCallerTests {

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
