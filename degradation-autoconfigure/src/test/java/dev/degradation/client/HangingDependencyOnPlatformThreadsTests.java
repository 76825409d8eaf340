package dev.degradation.client;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link HangingDependencyThreadCountTests} with the server's requests on platform threads.
 */
@TestPropertySource(properties = "spring.threads.virtual.enabled=false")
class HangingDependencyOnPlatformThreadsTests extends HangingDependencyThreadCountTests {

	@Override
	boolean virtualThreads() {
		return false;
	}

}
