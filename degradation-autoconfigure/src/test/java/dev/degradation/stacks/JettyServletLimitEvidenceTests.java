package dev.degradation.stacks;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * What a caller cannot teach the limit, on Spring MVC served by Jetty. Run by the {@code jetty}
 * surefire execution.
 */
@EnabledIfSystemProperty(named = JettyTests.ON_JETTY, matches = "true")
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"spring.autoconfigure.exclude=" + JettyTests.NOT_JETTY_SERVLET,
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class JettyServletLimitEvidenceTests extends ServletLimitEvidenceTests {

}
