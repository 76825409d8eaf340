package dev.degradation.client;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link HangingDependencyThreadCountTests} over Reactor Netty as the {@code RestClient}'s request
 * factory, with the server's requests on platform threads: the starter's
 * {@link ReactorAttemptTimeout} makes the client enforce each attempt's limit.
 */
@TestPropertySource(properties = { "spring.threads.virtual.enabled=false",
		"spring.http.clients.imperative.factory=reactor" })
class HangingDependencyOnReactorNettyTests extends HangingDependencyThreadCountTests {

	@Override
	boolean virtualThreads() {
		return false;
	}

	@Override
	Class<? extends ClientHttpRequestFactory> requestFactory() {
		return ReactorClientHttpRequestFactory.class;
	}

}
