package dev.degradation.stacks;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies over HTTP/2 on Spring MVC (Tomcat, h2c).
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "server.http2.enabled=true",
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class ServletHttp2BodyTests extends Http2BodyTests {

	@Test
	void tomcatGivesABodyOverHttp2NeitherALengthNorATransferCoding() {
		// So no header tells the starter that the request has a body: only its protocol does.
		Answer answer = post("/api/framing", Flux.just("whole").map(Http2BodyTests::piece))
			.block(Duration.ofSeconds(10));
		assertThat(answer).isNotNull();
		assertThat(answer.body()).isEqualTo("length=null coding=null body=whole");
	}

}
