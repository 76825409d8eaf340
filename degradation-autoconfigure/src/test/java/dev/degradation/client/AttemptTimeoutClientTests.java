package dev.degradation.client;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.netty.http.client.HttpClient;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Where a guarded {@code RestClient} call runs, with real HTTP clients against a dependency on
 * loopback. Through Apache HttpClient with the starter's {@link HttpComponentsAttemptTimeout},
 * the JDK's client with {@link JdkAttemptTimeout} and Reactor Netty with
 * {@link ReactorAttemptTimeout}, the first call shows that the client enforces the attempt's
 * limit, and from then on calls run on their caller's thread, a hanging one given up by the client
 * itself at the limit, and so is one whose answer stalls after its headers. Through a client the
 * starter gave no per-request timeout (Spring's JDK factory as it is, with one timeout for all
 * requests), every call runs on the guards' bounded executor, which gives up at the limit.
 */
class AttemptTimeoutClientTests {

	/** Long enough for a live answer on loopback on a loaded machine: it bounds the body too. */
	private static final Duration LIMIT = Duration.ofMillis(500);

	private final LoopbackStub stub = LoopbackStub.start();

	private final DependencyGuards guards = guards(this.stub.url());

	private final CloseableHttpClient apache = HttpClients.custom()
		.addExecInterceptorFirst(HttpComponentsAttemptTimeout.NAME, new HttpComponentsAttemptTimeout())
		.build();

	private final List<String> threads = new CopyOnWriteArrayList<>();

	@AfterEach
	void close() throws Exception {
		this.stub.close();
		this.apache.close();
		this.guards.close();
	}

	@Test
	void throughApacheHttpClientCallsRunOnTheirCallersThreadOnceItHasClaimedTheLimit() {
		assertCallsRunOnTheirCallersThreadAndAreGivenUpAtTheLimit(new HttpComponentsClientHttpRequestFactory(this.apache));
	}

	@Test
	void throughTheJdksClientCallsRunOnTheirCallersThreadOnceItHasClaimedTheLimit() {
		assertCallsRunOnTheirCallersThreadAndAreGivenUpAtTheLimit(
				new JdkAttemptTimeout(new JdkClientHttpRequestFactory(), null));
	}

	@Test
	void throughReactorNettyCallsRunOnTheirCallersThreadOnceItHasClaimedTheLimit() {
		this.stub.warmUpReactorNetty();
		assertCallsRunOnTheirCallersThreadAndAreGivenUpAtTheLimit(
				new ReactorClientHttpRequestFactory(new ReactorAttemptTimeout().apply(HttpClient.create())));
	}

	@Test
	void throughTheJdksClientAnAnswerThatStallsAfterItsHeadersIsGivenUpAtTheLimit() {
		assertAStalledBodyIsGivenUpAtTheLimit(new JdkAttemptTimeout(new JdkClientHttpRequestFactory(), null));
	}

	@Test
	void throughReactorNettyAnAnswerThatStallsAfterItsHeadersIsGivenUpAtTheLimit() {
		this.stub.warmUpReactorNetty();
		assertAStalledBodyIsGivenUpAtTheLimit(
				new ReactorClientHttpRequestFactory(new ReactorAttemptTimeout().apply(HttpClient.create())));
	}

	@Test
	void throughApacheHttpClientAnAnswerThatStallsAfterItsHeadersIsGivenUpAtTheLimit() {
		assertAStalledBodyIsGivenUpAtTheLimit(new HttpComponentsClientHttpRequestFactory(this.apache));
	}

	@Test
	void theJdksClientKeepsItsConfiguredTimeoutWhenItIsShorter() {
		assertThat(JdkAttemptTimeout.shorter(null, LIMIT)).isEqualTo(LIMIT);
		assertThat(JdkAttemptTimeout.shorter(Duration.ZERO, LIMIT)).isEqualTo(LIMIT);
		assertThat(JdkAttemptTimeout.shorter(Duration.ofMillis(100), LIMIT)).isEqualTo(Duration.ofMillis(100));
		assertThat(JdkAttemptTimeout.shorter(Duration.ofSeconds(5), LIMIT)).isEqualTo(LIMIT);
		assertThat(JdkAttemptTimeout.shorter(null, Duration.ZERO)).isEqualTo(Duration.ofMillis(1));
	}

	@Test
	void throughSpringsJdkFactoryAsItIsEveryCallRunsOnTheBoundedExecutorWhichGivesUpAtTheLimit() {
		RestClient client = client(new JdkClientHttpRequestFactory());
		this.stub.answer(200, null);
		assertThat(client.get().uri("/guarded/a").retrieve().body(String.class)).contains("live");
		assertThat(client.get().uri("/guarded/b").retrieve().body(String.class)).contains("live");
		assertThat(this.threads).allSatisfy((thread) -> assertThat(thread).startsWith("degradation-call-"));
		this.stub.hang = true;
		long started = System.nanoTime();
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> client.get().uri("/guarded/c").retrieve().toBodilessEntity())
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(DependencyUnavailableException.Reason.TIMEOUT));
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LIMIT.plusMillis(200));
	}

	private void assertCallsRunOnTheirCallersThreadAndAreGivenUpAtTheLimit(ClientHttpRequestFactory requestFactory) {
		RestClient client = client(requestFactory);
		this.stub.answer(200, null);
		assertThat(client.get().uri("/guarded/a").retrieve().body(String.class)).contains("live");
		assertThat(client.get().uri("/guarded/b").retrieve().body(String.class)).contains("live");
		assertThat(this.threads.get(0)).startsWith("degradation-call-");
		assertThat(this.threads.get(1)).isEqualTo(Thread.currentThread().getName());
		this.stub.hang = true;
		long started = System.nanoTime();
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> client.get().uri("/guarded/c").retrieve().toBodilessEntity())
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(DependencyUnavailableException.Reason.TIMEOUT));
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(took).isBetween(LIMIT.minusMillis(50), LIMIT.plusMillis(200));
		assertThat(this.threads.get(2)).isEqualTo(Thread.currentThread().getName());
		assertThat(this.guards.executor().active()).isZero();
	}

	/**
	 * A dependency that sends its headers and the first byte of its body, then nothing: reading
	 * the body fails at the attempt's limit with the guard's exception among its causes, which is
	 * what gives the route its fallback.
	 */
	private void assertAStalledBodyIsGivenUpAtTheLimit(ClientHttpRequestFactory requestFactory) {
		try (LoopbackDependency stalling = LoopbackDependency.start()
			.answer(Answer.ok("{" + " ".repeat(998) + "}").stallAfter(1));
				DependencyGuards guards = guards(stalling.url())) {
			RestClient client = RestClient.builder()
				.baseUrl(stalling.url())
				.requestFactory(requestFactory)
				.requestInterceptor(
						new GuardingInterceptor(guards, "x-envoy-expected-rq-timeout-ms", Clock.systemUTC()))
				.build();
			for (int i = 0; i < 3; i++) {
				long started = System.nanoTime();
				// The first call, on the executor, may time out on the headers on a loaded machine.
				assertThatExceptionOfType(RuntimeException.class)
					.isThrownBy(() -> client.get().uri("/guarded/body").retrieve().body(String.class))
					.satisfies((ex) -> assertThat(DependencyUnavailableException.withoutAnswer(ex)).isNotNull()
						.satisfies((refused) -> assertThat(refused.dependency()).isEqualTo("guarded")));
				Duration took = Duration.ofNanos(System.nanoTime() - started);
				// Apache HttpClient's and Reactor Netty's timeouts bound each wait for bytes: the
				// limit runs again from the headers.
				assertThat(took).as("call %d", i).isLessThan(LIMIT.multipliedBy(2).plusMillis(200));
			}
			assertThat(guards.executor().active()).isZero();
		}
	}

	private static DependencyGuards guards(String url) {
		String manifest = String.join("\n", "dependencies:", "  guarded:", "    base_url: \"" + url + "/guarded\"",
				"    call_timeout_ms: " + LIMIT.toMillis(), "    breaker: { minimum_calls: 100, window_size: 100 }",
				"tiers: { t: { priority: 1, routes: [ { path: /x, method: GET, fallback: drop } ] } }", "");
		return new DependencyGuards(
				new DegradationEngine(ManifestLoader.standard().load("attempts.yaml",
						manifest.getBytes(StandardCharsets.UTF_8)), Clock.systemUTC()),
				CircuitBreakerRegistry.ofDefaults(), TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults());
	}

	@Test
	void aCallElsewhereKeepsItsClientsOwnTimeouts() {
		RestClient client = client(new HttpComponentsClientHttpRequestFactory(this.apache));
		this.stub.answer(200, null);
		assertThat(client.get().uri("/elsewhere").retrieve().body(String.class)).contains("live");
		assertThat(this.threads).containsExactly(Thread.currentThread().getName());
	}

	@Test
	void theLimitNeverLengthensAShorterTimeoutOfTheClientsOwn() {
		RequestConfig configured = RequestConfig.custom()
			.setResponseTimeout(Timeout.ofMilliseconds(100))
			.setConnectionRequestTimeout(Timeout.DISABLED)
			.build();
		RequestConfig limited = HttpComponentsAttemptTimeout.limited(configured, LIMIT);
		assertThat(limited.getResponseTimeout()).isEqualTo(Timeout.ofMilliseconds(100));
		assertThat(limited.getConnectionRequestTimeout().toMilliseconds()).isEqualTo(LIMIT.toMillis());
		assertThat(HttpComponentsAttemptTimeout.limited(RequestConfig.DEFAULT, LIMIT).getResponseTimeout()
			.convert(TimeUnit.MILLISECONDS)).isEqualTo(LIMIT.toMillis());
	}

	/**
	 * Return a guarded client, warmed up by a call elsewhere: a first call takes longer than the
	 * dependency (the client's classes, its connection).
	 */
	private RestClient client(ClientHttpRequestFactory requestFactory) {
		RestClient client = RestClient.builder()
			.baseUrl(this.stub.url())
			.requestFactory(requestFactory)
			.requestInterceptor(new GuardingInterceptor(this.guards, "x-envoy-expected-rq-timeout-ms",
					Clock.systemUTC()))
			.requestInterceptor((request, body, execution) -> {
				this.threads.add(Thread.currentThread().getName());
				return execution.execute(request, body);
			})
			.build();
		this.stub.answer(200, null);
		client.get().uri("/warm-up").retrieve().toBodilessEntity();
		this.threads.clear();
		return client;
	}

}
