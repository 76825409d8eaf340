package dev.degradation.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
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

	private final SilentServer silent = new SilentServer();

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
		assertThat(this.silent.connections).hasValue(2);
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

	/**
	 * A server on loopback that reads each request and closes the connection without answering.
	 */
	private static final class SilentServer implements AutoCloseable {

		private final ServerSocket socket;

		final AtomicInteger connections = new AtomicInteger();

		SilentServer() {
			try {
				this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
			Thread acceptor = new Thread(this::accept, "silent-server");
			acceptor.setDaemon(true);
			acceptor.start();
		}

		String url() {
			return "http://127.0.0.1:" + this.socket.getLocalPort();
		}

		private void accept() {
			while (!this.socket.isClosed()) {
				try (Socket connection = this.socket.accept()) {
					this.connections.incrementAndGet();
					BufferedReader reader = new BufferedReader(
							new InputStreamReader(connection.getInputStream(), StandardCharsets.ISO_8859_1));
					// Read the whole request, so that the client meets the closed connection
					// when it reads the answer, not while it writes.
					String line = reader.readLine();
					while (line != null && !line.isEmpty()) {
						line = reader.readLine();
					}
				}
				catch (IOException ex) {
					// Closed: the test is over.
				}
			}
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}
