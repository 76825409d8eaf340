package dev.degradation.stacks;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies over HTTP/2 on WebFlux (Reactor Netty, h2c).
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "server.http2.enabled=true",
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class ReactiveHttp2BodyTests extends Http2BodyTests {

	@Test
	void reactorNettyGivesABodyOverHttp2TheChunkedCodingOfHttp11() {
		// Netty's HTTP/2 to HTTP/1.1 codec marks a request whose headers do not end its stream as
		// chunked, so the headers alone tell the starter that it may have a body.
		Answer answer = post("/api/framing", Flux.just("whole").map(Http2BodyTests::piece))
			.block(Duration.ofSeconds(10));
		assertThat(answer).isNotNull();
		assertThat(answer.body()).isEqualTo("length=null coding=chunked body=whole");
	}

}
