package dev.degradation.client;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link HangingDependencyThreadCountTests} over the JDK's {@code HttpClient}, what Boot builds
 * when no other client is on the class path (here chosen by its property, Apache HttpClient being
 * on the tests' class path), with the server's requests on platform threads: the starter's
 * {@link JdkAttemptTimeout} makes the client enforce each attempt's limit.
 */
@TestPropertySource(properties = { "spring.threads.virtual.enabled=false",
		"spring.http.clients.imperative.factory=jdk" })
class HangingDependencyOnJdkClientTests extends HangingDependencyThreadCountTests {

	@Override
	boolean virtualThreads() {
		return false;
	}

	@Override
	Class<? extends ClientHttpRequestFactory> requestFactory() {
		return JdkAttemptTimeout.class;
	}

}
