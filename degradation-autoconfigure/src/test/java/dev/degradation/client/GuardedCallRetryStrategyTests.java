package dev.degradation.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * {@link GuardedCallRetryStrategy} in a real Apache HttpClient against real servers on loopback:
 * a 503 with {@code Retry-After} from a guarded dependency is handed back at once, neither
 * retried nor waited for by HttpClient (its guard retries it within its budget), while a call
 * elsewhere keeps HttpClient's default (one retry after the server's {@code Retry-After}), and a
 * guarded request that got no answer at all is still retried on a new connection.
 */
class GuardedCallRetryStrategyTests {

	private final LoopbackStub stub = LoopbackStub.start();

	/** A dependency that reads each request and closes the connection without answering. */
	private final LoopbackDependency silent = LoopbackDependency.start().answer(Answer.disconnect());

	private final DependencyGuards guards = guards(this.stub.url(), this.silent.url());

	private final CloseableHttpClient client = HttpClients.custom()
		.setRetryStrategy(new GuardedCallRetryStrategy(this.guards))
		.build();

	@AfterEach
	void close() throws IOException {
		this.client.close();
		this.guards.close();
		this.silent.close();
		this.stub.close();
	}

	@Test
	void aGuardedCallAskedToRetryLaterIsSentOnceAndAnsweredWithoutWaiting() throws IOException {
		this.stub.answer(503, "1");
		long started = System.nanoTime();
		int status = this.client.execute(new HttpGet(this.stub.url() + "/guarded/items"),
				(response) -> response.getCode());
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(status).isEqualTo(503);
		assertThat(this.stub.requests).singleElement()
			.satisfies((request) -> assertThat(request.path()).isEqualTo("/guarded/items"));
		// HttpClient's default would have slept the whole second of Retry-After first.
		assertThat(took).isLessThan(Duration.ofMillis(800));
	}

	@Test
	void aCallElsewhereIsRetriedOnceAfterTheServersRetryAfterAsHttpClientDoesByDefault() throws IOException {
		this.stub.answer(503, "1");
		long started = System.nanoTime();
		int status = this.client.execute(new HttpGet(this.stub.url() + "/elsewhere/items"),
				(response) -> response.getCode());
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(status).isEqualTo(503);
		assertThat(this.stub.requests).hasSize(2)
			.allSatisfy((request) -> assertThat(request.path()).isEqualTo("/elsewhere/items"));
		assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(900));
	}

	@Test
	void aPathThatOnlyBeginsWithTheBaseUrlsTextIsNotUnderItAndKeepsHttpClientsRetry() throws IOException {
		this.stub.answer(503, "1");
		// Under "/guarded" means the path itself or below "/guarded/", as a base URL is meant.
		int status = this.client.execute(new HttpGet(this.stub.url() + "/guardedness"),
				(response) -> response.getCode());
		assertThat(status).isEqualTo(503);
		assertThat(this.stub.requests).hasSize(2);
	}

	@Test
	void aGuardedRequestThatGotNoAnswerIsStillRetriedByHttpClient() {
		// A dropped connection (a stale pooled one, typically) says nothing about the
		// dependency's answer: HttpClient's retry of it is kept.
		assertThatIOException().isThrownBy(
				() -> this.client.execute(new HttpGet(this.silent.url() + "/items"), (response) -> response.getCode()));
		assertThat(this.silent.connections()).isEqualTo(2);
	}

	private static DependencyGuards guards(String stubUrl, String silentUrl) {
		DegradationManifest manifest = ManifestLoader.standard().load("retry-strategy.yaml", """
				dependencies:
				  guarded: { base_url: "%s/guarded" }
				  silent: { base_url: "%s" }
				tiers: { t: { priority: 1, routes: [ { path: /x, method: GET, fallback: drop } ] } }
				""".formatted(stubUrl, silentUrl).getBytes(StandardCharsets.UTF_8));
		return new DependencyGuards(new DegradationEngine(manifest, Clock.systemUTC()),
				CircuitBreakerRegistry.ofDefaults(), TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults());
	}

}
