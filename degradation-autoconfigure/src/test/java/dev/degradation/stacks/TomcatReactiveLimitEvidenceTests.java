package dev.degradation.stacks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a caller cannot teach the limit, on WebFlux served by Tomcat rather than Reactor Netty:
 * WebFlux's servlet adapter reads and writes through the container's non-blocking streams, sends
 * even an answer handed over whole only as the connection takes it, and recycles the response of
 * a request the container ended while the application's answer may still complete.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"spring.autoconfigure.exclude=org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class TomcatReactiveLimitEvidenceTests extends ReactiveLimitEvidenceTests {

	/**
	 * Tomcat cannot send a file by itself under WebFlux: the answer's file is read into buffers as
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
