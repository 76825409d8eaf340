package dev.degradation.stacks;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * Bodies over HTTP/2 on WebFlux served by Jetty (h2c): the servlet adapter marks a body of DATA
 * frames neither with a length nor as chunked, as Reactor Netty's codec does. Run by the
 * {@code jetty} surefire execution.
 */
@EnabledIfSystemProperty(named = JettyTests.ON_JETTY, matches = "true")
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "server.http2.enabled=true",
				"spring.autoconfigure.exclude=" + JettyTests.NOT_JETTY_REACTIVE,
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class JettyReactiveHttp2BodyTests extends Http2BodyTests {

}
