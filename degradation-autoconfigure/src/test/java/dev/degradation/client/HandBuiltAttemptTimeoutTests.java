package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * {@link HandBuiltAttemptTimeout} against a dependency on loopback that never answers: a request
 * made within a guarded attempt gives up at the attempt's limit, and the application's factory
 * keeps its own timeout for every other request, Spring's JDK factory and its
 * {@code HttpURLConnection} factory alike; any other factory, a subclass included, is not bounded.
 */
class HandBuiltAttemptTimeoutTests {

	private static final Duration LIMIT = Duration.ofMillis(300);

	private static final Duration CONFIGURED = Duration.ofMillis(1500);

	/** What a request may take beyond its timeout on a loaded machine. */
	private static final Duration LATE = Duration.ofMillis(700);

	private static final LoopbackDependency dependency = LoopbackDependency.start().answer(Answer.hang());

	@AfterAll
	static void closeDependency() {
		dependency.close();
	}

	@Test
	void aGuardedRequestOfTheJdkFactoryGivesUpAtTheLimitAndOthersKeepTheFactorysTimeout() throws Exception {
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory();
		factory.setReadTimeout(CONFIGURED);
		assertBoundedThenRestored(factory);
	}

	@Test
	void aGuardedRequestOfTheHttpUrlConnectionFactoryGivesUpAtTheLimitAndOthersKeepTheFactorysTimeout()
			throws Exception {
		SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
		factory.setReadTimeout(CONFIGURED);
		assertBoundedThenRestored(factory);
	}

	@Test
	void otherFactoriesAndSubclassesAreNotBounded() {
		assertThat(HandBuiltAttemptTimeout.of(new SimpleClientHttpRequestFactory() {
		})).isNull();
		assertThat(HandBuiltAttemptTimeout.of(new ReactorClientHttpRequestFactory()))
			.isNull();
	}

	private void assertBoundedThenRestored(ClientHttpRequestFactory factory) throws Exception {
		HandBuiltAttemptTimeout bounded = HandBuiltAttemptTimeout.of(factory);
		assertThat(bounded).isNotNull();
		Duration guarded;
		boolean[] claimed = new boolean[1];
		try (AttemptLimit attempt = AttemptLimit.begin(LIMIT, () -> claimed[0] = true)) {
			guarded = failsAfter(bounded);
			assertThat(attempt.claimed()).isTrue();
		}
		assertThat(claimed[0]).isTrue();
		assertThat(guarded).isGreaterThanOrEqualTo(LIMIT.minusMillis(10)).isLessThan(LIMIT.plus(LATE));
		// Put back: a request outside any attempt waits the factory's own time.
		Duration unguarded = failsAfter(bounded);
		assertThat(unguarded).isGreaterThanOrEqualTo(CONFIGURED.minusMillis(10)).isLessThan(CONFIGURED.plus(LATE));
	}

	private static Duration failsAfter(ClientHttpRequestFactory factory) throws IOException {
		long started = System.nanoTime();
		assertThatIOException()
			.isThrownBy(() -> factory.createRequest(URI.create(dependency.url() + "/stalled"), HttpMethod.GET)
				.execute()
				.getStatusCode());
		return Duration.ofNanos(System.nanoTime() - started);
	}

}
