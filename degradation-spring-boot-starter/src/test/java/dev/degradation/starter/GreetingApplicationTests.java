package dev.degradation.starter;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A full-context test of an application that adds the starter and sets none of its properties,
 * written as its team writes its tests: the backend is stubbed with WireMock, and only the call the
 * application makes is stubbed, not the backend's health URL. The test keeps passing however long
 * the probes run (a health URL that answers 404 is not evidence, so it sheds nothing), and the log
 * says once how to put it right; a health URL that answers 503 still sheds the route.
 */
@SpringBootTest(classes = GreetingApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class GreetingApplicationTests {

	static final WireMockServer backend = start();

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@DynamicPropertySource
	static void backendUrl(DynamicPropertyRegistry registry) {
		registry.add("greeting.backend-url", backend::baseUrl);
	}

	@AfterAll
	static void stopBackend() {
		backend.stop();
	}

	@AfterEach
	void resetStubs() {
		backend.resetAll();
		backend.stubFor(get("/hello").willReturn(okJson("{\"text\":\"Hello from the backend\"}")));
		this.engine.reset();
	}

	@Test
	void theApplicationsOwnTestPassesWhileTheUnstubbedHealthUrlIsProbed(CapturedOutput output) throws Exception {
		// More probes than the window needs to judge (min_samples: 3), all answered 404 by WireMock.
		long before = healthProbes();
		await().atMost(Duration.ofSeconds(30)).until(() -> healthProbes() >= before + 5);
		HttpResponse<String> greeting = send("/api/greeting");
		assertThat(greeting.statusCode()).isEqualTo(200);
		assertThat(greeting.body()).isEqualTo("{\"text\":\"Hello from the backend\"}");
		assertThat(greeting.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(this.engine.dependency("backend").state()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(this.engine.dependency("backend").lastProbe().outcome()).isEqualTo("not_found");
		String warning = "Dependency 'backend': its health_url " + backend.baseUrl()
				+ "/healthz answered 404 Not Found";
		assertThat(output.getOut()).contains(warning, "'degradation.probes.enabled=false'");
		assertThat(output.getOut().split(warning, -1)).as("warned once").hasSize(2);
	}

	@Test
	void aHealthUrlThatAnswersAFailureStillShedsTheRoute() throws Exception {
		StubMapping down = backend.stubFor(get("/healthz").willReturn(aResponse().withStatus(503)));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.engine.dependency("backend").state() == DependencyState.FAILED);
		HttpResponse<String> greeting = send("/api/greeting");
		assertThat(greeting.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(greeting.body()).isEqualTo("{\"text\":\"Hello\",\"source\":\"degraded\"}");
		backend.removeStub(down);
	}

	private static long healthProbes() {
		return backend.countRequestsMatching(getRequestedFor(urlEqualTo("/healthz")).build()).getCount();
	}

	private HttpResponse<String> send(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static WireMockServer start() {
		WireMockServer server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
		server.start();
		server.stubFor(get("/hello").willReturn(okJson("{\"text\":\"Hello from the backend\"}")));
		return server;
	}

}
