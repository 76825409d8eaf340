package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The behaviour suite on WebFlux served by Tomcat rather than Reactor Netty (WebFlux's servlet
 * adapter): the server's own reading, writing and end of an exchange differ, the starter's
 * behaviour may not. A sibling of {@link ReactiveStackBehaviourTests}, not a subclass, so that each
 * has its own dependency and manifest.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"spring.autoconfigure.exclude=org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted",
				"management.endpoint.health.show-details=always" })
class TomcatReactiveStackBehaviourTests extends StackBehaviourTests {

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
