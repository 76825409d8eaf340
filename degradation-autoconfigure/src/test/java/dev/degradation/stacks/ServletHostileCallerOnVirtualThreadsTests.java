package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hostile-caller suite on Spring MVC whose requests run on virtual threads (Java 21 and
 * later), the Actuator on the application's port. Run on the machine's Java 25 JDK by the
 * {@code virtual-threads} profile, as {@code .ci/run} does.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted", "degradation.priority.enabled=true",
				"spring.threads.virtual.enabled=true" })
class ServletHostileCallerOnVirtualThreadsTests extends HostileCallerTests {

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
