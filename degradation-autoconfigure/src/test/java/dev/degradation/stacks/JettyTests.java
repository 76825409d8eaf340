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

	/**
	 * The auto-configurations of the other reactive management servers, excluded so that Jetty
	 * serves a separate management port: beside Jetty's, the management context factories clash.
	 */
	static final String NOT_JETTY_REACTIVE_MANAGEMENT = "org.springframework.boot.reactor.netty.autoconfigure.actuate.web.server.NettyReactiveManagementContextAutoConfiguration,"
			+ "org.springframework.boot.tomcat.autoconfigure.actuate.web.server.TomcatReactiveManagementContextAutoConfiguration";

	/** The auto-configuration of Tomcat's servlet server, excluded so that Jetty serves. */
	static final String NOT_JETTY_SERVLET = "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration";

	/**
	 * The auto-configuration of Tomcat's servlet management server, excluded so that Jetty serves
	 * a separate management port: beside Jetty's, the two management context factories clash.
	 */
	static final String NOT_JETTY_SERVLET_MANAGEMENT = "org.springframework.boot.tomcat.autoconfigure.actuate.web.server.TomcatServletManagementContextAutoConfiguration";

	private JettyTests() {
	}

}
