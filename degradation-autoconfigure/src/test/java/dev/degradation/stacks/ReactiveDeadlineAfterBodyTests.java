package dev.degradation.stacks;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * A caller's deadline counted from its request's arrival, on WebFlux.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "degradation.manifest=classpath:manifests/stacks-wait.yaml",
				"degradation.probes.enabled=false", "test.inventory.url=http://127.0.0.1:9/healthz" })
class ReactiveDeadlineAfterBodyTests extends DeadlineAfterBodyTests {

}
