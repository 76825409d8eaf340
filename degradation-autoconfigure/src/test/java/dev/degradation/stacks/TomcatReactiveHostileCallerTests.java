package dev.degradation.stacks;

import org.junit.jupiter.api.AfterAll;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The suite of what a hostile caller may not do, on WebFlux served by Tomcat rather than
 * Reactor Netty (WebFlux's servlet adapter): the server's own reading, writing and end of an
 * exchange differ, the starter's behaviour may not.
 */
@TestPropertySource(properties = "spring.autoconfigure.exclude="
		+ "org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration")
class TomcatReactiveHostileCallerTests extends ReactiveHostileCallerTests {

	/** A dependency of its own: the one of the class it extends is stopped with that class. */
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
