package dev.degradation.stacks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.engine.DegradationEngine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A keep-alive HTTP/1.1 connection stays readable after a request that the starter answers at
 * once (a shed route's fallback, written by the web filter without calling a handler) was held
 * back by Reactor Netty because it arrived while the previous exchange on the connection had not
 * ended yet. Reactor Netty before 1.3.8 drained such a request and its trailing empty content
 * without asking the connection for more, so the next request on it was never read and got no
 * answer until the client gave up (reactor/reactor-netty#4361, #4347; docs/overload.md, "A request
 * without an answer on WebFlux").
 *
 * <p>The previous exchange ends late on purpose here: a filter sends its whole answer, then ends
 * it a while later, as an exchange whose answer was written from another thread (a
 * {@code WebClient}'s) can end after its client read the answer and sent the next request (Reactor
 * Netty then holds the request back as a pipelined one, in the same queue, drained the same way).
 * The requests go on one socket, one after the other, never pipelined; each read is bounded.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"degradation.manifest=classpath:manifests/stacks.yaml", "degradation.probes.enabled=false",
				"test.inventory.url=http://127.0.0.1:9/healthz" })
@Import(ReactiveKeepAliveAfterAnswerAtOnceTests.EndsLate.class)
class ReactiveKeepAliveAfterAnswerAtOnceTests {

	/** A path whose exchange ends {@link #END_AFTER} after its whole answer was sent. */
	static final String LATE_PATH = "/test/ends-late";

	static final Duration END_AFTER = Duration.ofMillis(300);

	private static final int ROUNDS = 5;

	private static final Duration READ_LIMIT = Duration.ofSeconds(5);

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void live() {
		this.engine.stopSimulation();
	}

	@Test
	void aFallbackAnsweredAtOnceAfterAnExchangeThatEndedLateLeavesTheConnectionReadable() throws IOException {
		this.engine.simulate(1);
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout((int) READ_LIMIT.toMillis());
			for (int round = 1; round <= ROUNDS; round++) {
				Reply late = exchange(socket, LATE_PATH, round + ": ending late");
				assertThat(late.status()).isEqualTo(200);
				assertThat(late.body()).isEqualTo("answered");
				// Sent at once: it reaches the server while the exchange before still runs, and is
				// held back until that one ends; the starter then answers it without a handler.
				Reply shed = exchange(socket, "/api/report", round + ": shed");
				assertThat(shed.status()).isEqualTo(503);
				assertThat(shed.head()).contains("x-degraded: true");
				Reply next = exchange(socket, "/api/items/7", round + ": after the fallback");
				assertThat(next.status()).isEqualTo(200);
				assertThat(next.body()).isEqualTo("live item 7");
			}
		}
	}

	private static Reply exchange(Socket socket, String path, String what) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
		try {
			return Reply.read(socket.getInputStream());
		}
		catch (SocketTimeoutException ex) {
			return fail("no answer to GET " + path + " (" + what + ") within " + READ_LIMIT
					+ " on a keep-alive connection", ex);
		}
	}

	/** An HTTP/1.1 answer: its status line and headers (lower case), and its body. */
	record Reply(int status, String head, String body) {

		static Reply read(InputStream in) throws IOException {
			String head = readHead(in).toLowerCase(Locale.ROOT);
			int status = Integer.parseInt(head.substring(9, 12));
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			if (head.contains("transfer-encoding: chunked")) {
				for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
					body.write(in.readNBytes(size));
					readLine(in);
				}
				readLine(in);
			}
			else {
				body.write(in.readNBytes(contentLength(head)));
			}
			return new Reply(status, head, body.toString(StandardCharsets.UTF_8));
		}

		private static int contentLength(String head) {
			for (String line : head.split("\r\n")) {
				if (line.startsWith("content-length:")) {
					return Integer.parseInt(line.substring("content-length:".length()).trim());
				}
			}
			throw new IllegalStateException("an answer without a length: " + head);
		}

		private static int chunkSize(InputStream in) throws IOException {
			return Integer.parseInt(readLine(in).trim(), 16);
		}

		private static String readHead(InputStream in) throws IOException {
			StringBuilder head = new StringBuilder();
			for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
				head.append(line).append("\r\n");
			}
			return head.toString();
		}

		private static String readLine(InputStream in) throws IOException {
			ByteArrayOutputStream line = new ByteArrayOutputStream();
			for (int b = in.read(); b != '\n'; b = in.read()) {
				if (b < 0) {
					throw new IOException("the server closed the connection");
				}
				if (b != '\r') {
					line.write(b);
				}
			}
			return line.toString(StandardCharsets.US_ASCII);
		}

	}

	/**
	 * Answers {@link #LATE_PATH} itself, before everything else, and ends its exchange
	 * {@link #END_AFTER} after the answer was sent.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class EndsLate {

		@Bean
		WebFilter endsLate() {
			return new OrderedEndsLate();
		}

	}

	static final class OrderedEndsLate implements WebFilter, Ordered {

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
			if (!exchange.getRequest().getPath().value().equals(LATE_PATH)) {
				return chain.filter(exchange);
			}
			// The whole answer goes out at once (its length is known, so the client has all of it),
			// but the exchange ends only later.
			ServerHttpResponse response = exchange.getResponse();
			byte[] body = "answered".getBytes(StandardCharsets.US_ASCII);
			response.getHeaders().setContentLength(body.length);
			return response.writeWith(Flux.just(response.bufferFactory().wrap(body)))
				.then(Mono.delay(END_AFTER))
				.then();
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

	}

}
