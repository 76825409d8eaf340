package dev.degradation.stacks;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.ShallowEtagHeaderFilter;

import dev.degradation.engine.OverloadSignal;
import dev.degradation.overload.Admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An admitted request's timed answer under what an ordinary Spring MVC application puts around
 * it: an ETag filter that buffers the whole answer and writes it at once, the server's
 * compression, a {@code HEAD} request. The answer arrives whole and the request is a sample.
 */
@SpringBootTest(classes = { StackTestApplication.class, ServletAnswerCompatibilityTests.EtagConfiguration.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s", "server.compression.enabled=true",
				"server.compression.mime-types=application/octet-stream,text/plain" })
class ServletAnswerCompatibilityTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	OverloadSignal overload;

	@AfterEach
	void drained() {
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
	}

	@Test
	void aLargeAnswerThroughAnEtagFilterAndCompressionArrivesWholeAndIsASample() throws Exception {
		long succeeded = admission().succeeded();
		HttpResponse<byte[]> response = send(request("/api/large").header("Accept-Encoding", "gzip").GET());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
		String etag = response.headers().firstValue("ETag").orElseThrow();
		assertThat(gunzipped(response.body())).isEqualTo(StackTestApplication.LARGE_ANSWER.length);
		HttpResponse<byte[]> unchanged = send(request("/api/large").header("If-None-Match", etag).GET());
		assertThat(unchanged.statusCode()).isEqualTo(304);
		await().atMost(Duration.ofSeconds(5)).until(() -> admission().inflight() == 0);
		assertThat(admission().succeeded() - succeeded).as("each answer is a sample").isEqualTo(2);
	}

	@Test
	void aHeadRequestOfALargeAnswerIsAnsweredWithoutItsBodyAndIsASample() throws Exception {
		long succeeded = admission().succeeded();
		HttpResponse<byte[]> response = send(request("/api/large").method("HEAD", HttpRequest.BodyPublishers.noBody()));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEmpty();
		HttpResponse<byte[]> page = send(request("/api/large-page").GET());
		assertThat(page.body()).hasSize(StackTestApplication.LARGE_ANSWER.length);
		await().atMost(Duration.ofSeconds(5)).until(() -> admission().inflight() == 0);
		assertThat(admission().succeeded() - succeeded).isEqualTo(2);
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).timeout(Duration.ofSeconds(20));
	}

	private HttpResponse<byte[]> send(HttpRequest.Builder request) throws Exception {
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
	}

	private static long gunzipped(byte[] body) throws IOException {
		try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
			return in.transferTo(DiscardingOutput.INSTANCE);
		}
	}

	private Admission admission() {
		OverloadSignal.Active active = this.overload.active();
		assertThat(active).isNotNull();
		return active.admission();
	}

	/** Where the decompressed answer goes: only its length matters. */
	private static final class DiscardingOutput extends OutputStream {

		static final DiscardingOutput INSTANCE = new DiscardingOutput();

		@Override
		public void write(int b) {
		}

		@Override
		public void write(byte[] b, int off, int len) {
		}

	}

	/**
	 * An application's ETag filter, after the starter's: it buffers the whole answer and writes it
	 * through the starter's timed answer at once.
	 */
	@Configuration(proxyBeanMethods = false)
	static class EtagConfiguration {

		@Bean
		ShallowEtagHeaderFilter etagFilter() {
			ShallowEtagHeaderFilter filter = new ShallowEtagHeaderFilter();
			// Tomcat compresses no answer of a strong ETag.
			filter.setWriteWeakETag(true);
			return filter;
		}

	}

}
