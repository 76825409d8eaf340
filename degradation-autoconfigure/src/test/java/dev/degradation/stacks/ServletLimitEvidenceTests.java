package dev.degradation.stacks;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * What a caller cannot teach the limit, on Spring MVC.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class ServletLimitEvidenceTests extends LimitEvidenceTests {

	@Test
	void callersThatDoNotReadAPageWrittenThroughTheWriterHoldNoPlacePastTheBodyTimeout() throws Exception {
		assertSlowReadersHoldNoPlace("/api/large-page", StackTestApplication.LARGE_ANSWER.length);
	}

}
