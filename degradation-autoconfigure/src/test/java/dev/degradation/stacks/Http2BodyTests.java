package dev.degradation.stacks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.overload.Admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bodies sent over HTTP/2 (cleartext, with prior knowledge) to a real server of each web stack:
 * a body of DATA frames declares no length and, over HTTP/2, carries no transfer coding, yet it
 * must arrive within the body time-out of its admission as any other body does. Every request
 * goes to 127.0.0.1 only, bounded in count and time.
 */
abstract class Http2BodyTests {

	/** How many pieces a slow body has, one every 200 ms: 8 s in all, the body time-out is 3 s. */
	private static final int SLOW_PIECES = 40;

	/**
	 * A piece of a slow body: a DATA frame of 2 KB, above Tomcat's overhead threshold (1 KB), which
	 * closes a connection of smaller frames as an attack of its own; a trickle of larger ones it
	 * lets through.
	 */
	private static final String SLOW_PIECE = "x".repeat(2048);

	private final HttpClient client = HttpClient.create()
		.protocol(HttpProtocol.H2C)
		.responseTimeout(Duration.ofSeconds(15));

	@LocalServerPort
	int port;

	@Autowired
	OverloadSignal overload;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void drained() {
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
	}

	@Test
	void aBodyOverHttp2DeclaresNoLengthAndIsServedWhole() {
		Answer answer = post("/api/framing", Flux.just("whole").map(Http2BodyTests::piece))
			.block(Duration.ofSeconds(10));
		assertThat(answer).isNotNull();
		assertThat(answer.version()).isEqualTo("HTTP/2.0");
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.body()).startsWith("length=null ").endsWith(" body=whole");
	}

	@Test
	void aSlowBodyOfNoDeclaredLengthGivesItsPlaceBackAtTheBodyTimeoutAndIsNoSample() {
		long succeeded = admission().succeeded();
		long dropped = admission().dropped();
		AtomicInteger sent = new AtomicInteger();
		Flux<ByteBuf> trickle = Flux.interval(Duration.ofMillis(200)).take(SLOW_PIECES).map((tick) -> {
			sent.incrementAndGet();
			return piece(SLOW_PIECE);
		});
		CompletableFuture<Answer> answer = post("/api/echo", trickle).toFuture();
		await().atMost(Duration.ofSeconds(2)).until(() -> admission().inflight() == 1);
		long admitted = System.nanoTime();
		// Without a bound the place was held until the last piece, 8 s after the first.
		await().atMost(Duration.ofSeconds(5)).until(() -> admission().inflight() == 0);
		assertThat(System.nanoTime() - admitted).as("the place given back at the body time-out")
			.isGreaterThan(TimeUnit.SECONDS.toNanos(2));
		assertThat(sent.get()).as("given back while the body still trickled").isLessThan(SLOW_PIECES);
		assertThat(answer).succeedsWithin(Duration.ofSeconds(10))
			.satisfies((cut) -> assertThat(cut.status()).as(cut.toString()).isBetween(400, 499));
		assertThat(admission().succeeded()).as("a slow body is no sample").isEqualTo(succeeded);
		assertThat(admission().dropped()).isEqualTo(dropped);
	}

	@Test
	void aCheapAnswerToABodyStillArrivingOverHttp2ReachesItsCaller() {
		// The route's tier is shed: the starter answers in the request's stead without reading its
		// body, which goes on arriving after the answer; a stream closed on it must not take the
		// answer with it.
		this.engine.simulate(2);
		try {
			for (int i = 0; i < 5; i++) {
				AtomicInteger sent = new AtomicInteger();
				Flux<ByteBuf> trickle = Flux.interval(Duration.ofMillis(20)).take(25).map((tick) -> {
					sent.incrementAndGet();
					return piece(SLOW_PIECE);
				});
				Answer answer = post("/api/track", trickle).block(Duration.ofSeconds(10));
				assertThat(answer).as("request %d", i + 1).isNotNull();
				assertThat(answer.version()).isEqualTo("HTTP/2.0");
				assertThat(answer.status()).as("request %d: %s", i + 1, answer).isEqualTo(204);
			}
		}
		finally {
			this.engine.stopSimulation();
		}
	}

	/**
	 * Post a body of no declared length: over HTTP/2 the client sends it as DATA frames, and
	 * leaves out the transfer coding HTTP/1.1 would have needed.
	 */
	final Mono<Answer> post(String path, Publisher<ByteBuf> body) {
		return this.client.headers((headers) -> headers.set(HttpHeaderNames.CONTENT_TYPE, "text/plain"))
			.post()
			.uri("http://127.0.0.1:" + this.port + path)
			.send(body)
			.responseSingle((response, content) -> content.asString(StandardCharsets.UTF_8)
				.defaultIfEmpty("")
				.map((text) -> new Answer(response.status().code(), response.version().text(), text)));
	}

	static ByteBuf piece(String text) {
		return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
	}

	private Admission admission() {
		OverloadSignal.Active active = this.overload.active();
		assertThat(active).isNotNull();
		return active.admission();
	}

	/**
	 * An answer as the client read it.
	 * @param status its status
	 * @param version the protocol it came over
	 * @param body its body
	 */
	record Answer(int status, String version, String body) {

	}

}
