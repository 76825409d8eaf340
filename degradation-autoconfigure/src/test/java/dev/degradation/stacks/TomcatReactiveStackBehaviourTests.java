package dev.degradation.stacks;

import org.springframework.test.context.TestPropertySource;

/**
 * The suite of the behaviour both stacks share, on WebFlux served by Tomcat rather than
 * Reactor Netty (WebFlux's servlet adapter): the server's own reading, writing and end of an
 * exchange differ, the starter's behaviour may not.
 */
@TestPropertySource(properties = "spring.autoconfigure.exclude="
		+ "org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration")
class TomcatReactiveStackBehaviourTests extends ReactiveStackBehaviourTests {

}
