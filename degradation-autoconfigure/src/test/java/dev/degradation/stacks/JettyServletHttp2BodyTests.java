package dev.degradation.stacks;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * Bodies over HTTP/2 on Spring MVC served by Jetty (h2c): a body of DATA frames declares no
 * length and is not chunked. Run by the {@code jetty} surefire execution.
 */
@EnabledIfSystemProperty(named = JettyTests.ON_JETTY, matches = "true")
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "server.http2.enabled=true",
				"spring.autoconfigure.exclude=" + JettyTests.NOT_JETTY_SERVLET,
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class JettyServletHttp2BodyTests extends ServletHttp2BodyTests {

}
