package dev.degradation.stacks;

/**
 * What the suites on Jetty share. Spring Boot's Jetty server is on their class path only in the
 * {@code jetty} surefire execution (see the module's POM): beside Tomcat and Reactor Netty it would
 * be the server every other test starts, since Spring Boot orders the servers' auto-configurations
 * by name.
 */
final class JettyTests {

	/** The system property the {@code jetty} execution sets, without which the suites are off. */
	static final String ON_JETTY = "degradation.test.jetty";

	/** The auto-configurations of the other reactive servers, excluded so that Jetty serves. */
	static final String NOT_JETTY_REACTIVE = "org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration,"
			+ "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration";

	/** The auto-configuration of Tomcat's servlet server, excluded so that Jetty serves. */
	static final String NOT_JETTY_SERVLET = "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration";

	private JettyTests() {
	}

}
