package dev.degradation.stacks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a caller cannot teach the limit, on WebFlux served by Jetty rather than Reactor Netty:
 * WebFlux's servlet adapter reads and writes through Jetty's non-blocking streams, sends even an
 * answer handed over whole only as the connection takes it, and Jetty recycles the response the
 * moment the exchange completes. Run by the {@code jetty} surefire execution.
 */
@EnabledIfSystemProperty(named = JettyTests.ON_JETTY, matches = "true")
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"spring.autoconfigure.exclude=" + JettyTests.NOT_JETTY_REACTIVE,
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class JettyReactiveLimitEvidenceTests extends ReactiveLimitEvidenceTests {

	/**
	 * Jetty does not send a file by itself under WebFlux: the answer's file is read into buffers as
	 * Spring reads it for such a server, and arrives whole.
	 */
	@Test
	@Override
	void anAdmittedAnswerCanStillBeSentFromAFileByTheServer() throws Exception {
		HttpResponse<byte[]> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/file"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(StackTestApplication.LARGE_ANSWER);
	}

}
