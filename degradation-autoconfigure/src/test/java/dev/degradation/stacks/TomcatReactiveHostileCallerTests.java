package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hostile-caller suite on WebFlux served by Tomcat rather than Reactor Netty (WebFlux's
 * servlet adapter), the Actuator on the application's port. A sibling of
 * {@link ReactiveHostileCallerTests}, not a subclass, so that each has its own dependency.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"spring.autoconfigure.exclude=org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted", "degradation.priority.enabled=true" })
class TomcatReactiveHostileCallerTests extends HostileCallerTests {

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
