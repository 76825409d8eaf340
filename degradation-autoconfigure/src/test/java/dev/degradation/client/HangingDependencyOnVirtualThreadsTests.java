package dev.degradation.client;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link HangingDependencyThreadCountTests} with the server's requests on virtual threads. Needs a
 * JDK 21 or later (on 17 Boot falls back to platform threads), so the build runs it in its own
 * execution, {@code virtual-threads}, by the JDK that {@code virtual-threads.jvm} names; the
 * default execution leaves it out.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@TestPropertySource(properties = "spring.threads.virtual.enabled=true")
class HangingDependencyOnVirtualThreadsTests extends HangingDependencyThreadCountTests {

	@Override
	boolean virtualThreads() {
		return true;
	}

}
