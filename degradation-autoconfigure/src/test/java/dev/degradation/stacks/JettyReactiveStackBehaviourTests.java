package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The behaviour suite on WebFlux served by Jetty (WebFlux's servlet adapter on Jetty's): Jetty
 * recycles an exchange's response the moment WebFlux completes it, before anything that runs after
 * the completion can read it. A sibling of {@link ReactiveStackBehaviourTests}, not a subclass, so
 * that each has its own dependency and manifest. Run by the {@code jetty} surefire execution.
 */
@EnabledIfSystemProperty(named = JettyTests.ON_JETTY, matches = "true")
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"spring.autoconfigure.exclude=" + JettyTests.NOT_JETTY_REACTIVE,
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted",
				"management.endpoint.health.show-details=always" })
class JettyReactiveStackBehaviourTests extends StackBehaviourTests {

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
		return "Reactive";
	}

	@Override
	String sessionCookieName() {
		return "SESSION";
	}

}
