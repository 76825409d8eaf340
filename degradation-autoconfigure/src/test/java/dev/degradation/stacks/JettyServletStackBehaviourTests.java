package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The behaviour suite on Spring MVC and a real Jetty. Run by the {@code jetty} surefire execution.
 */
@EnabledIfSystemProperty(named = JettyTests.ON_JETTY, matches = "true")
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"spring.autoconfigure.exclude=" + JettyTests.NOT_JETTY_SERVLET,
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted",
				"management.endpoint.health.show-details=always" })
class JettyServletStackBehaviourTests extends StackBehaviourTests {

	static final Fixture fixture = Fixture.start();

	@DynamicPropertySource
	static void dependencies(DynamicPropertyRegistry registry) {
		fixture.register(registry);
	}

	@AfterAll
	static void stop() {
		fixture.close();
	}

	@Override
	Fixture fixture() {
		return fixture;
	}

	@Override
	String expectedStack() {
		return "Servlet";
	}

	@Override
	String sessionCookieName() {
		return "JSESSIONID";
	}

}
