package dev.degradation.overload;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.degradation.testapp.CapacityTestApplication;

/**
 * The same load on virtual threads (Java 21 and later), where Tomcat no longer bounds the
 * concurrency and admission is the only bound between the connector and the application: core
 * requests beyond capacity are refused at once (here with 429 and its Retry-After), degradable
 * ones get their fallback, nothing is answered after its caller gave up, and the Actuator answers
 * throughout. The default test run, on the build's Java 17, leaves it out; the {@code virtual-threads}
 * profile runs it on the machine's Java 25 JDK, as {@code .ci/run} does.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@SpringBootTest(classes = CapacityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/overload-429.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation,health", "spring.threads.virtual.enabled=true" })
class OverloadOnVirtualThreadsTests extends OverloadIntegrationTests {

	@Override
	int refusalStatus() {
		return 429;
	}

	@Override
	boolean virtualThreads() {
		return true;
	}

}
