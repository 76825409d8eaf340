package dev.degradation.stacks;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a caller cannot teach the limit, on Spring MVC.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class ServletLimitEvidenceTests extends LimitEvidenceTests {

	@Test
	void callersThatDoNotReadAPageWrittenThroughTheWriterHoldNoPlacePastTheBodyTimeout() throws Exception {
		assertSlowReadersHoldNoPlace("/api/large-page", StackTestApplication.LARGE_ANSWER.length);
	}

	@Test
	void anAnswerWrittenThroughTheWriterStillSeesItsCallerLeave() throws Exception {
		// A servlet that streams through its writer stops when checkError() says the caller left:
		// the timed writer must not hide the container's writer's error, or the stream, and its
		// place, would go on for nobody.
		CompletableFuture<Integer> ended = new CompletableFuture<>();
		StackTestApplication.TICKS_ENDED.set(ended);
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream()
				.write("GET /api/ticks HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
			socket.getOutputStream().flush();
			byte[] head = new byte[64];
			assertThat(socket.getInputStream().read(head)).isPositive();
			// Leave with a reset: the next writes fail at once.
			socket.setSoLinger(true, 0);
		}
		assertThat(ended).succeedsWithin(Duration.ofSeconds(5))
			.asInstanceOf(InstanceOfAssertFactories.INTEGER)
			.isLessThan(StackTestApplication.ServletTicksController.MAX_TICKS);
	}

}
