package dev.degradation.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.SpringSessionTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The copies of a {@code stale} route whose handler starts a session, in an application whose
 * sessions are Spring Session's, on Spring MVC: the session's cookie is written only as the answer
 * commits, after the starter has looked at the answer's headers, and the answer is still kept as
 * no one else's.
 */
@SpringBootTest(classes = SpringSessionTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"degradation.manifest=classpath:manifests/session-stale.yaml" })
class SessionStaleCopiesIntegrationTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void stopSimulation() {
		this.engine.stopSimulation();
	}

	@Test
	void theAnswerOfARequestThatStartedASessionIsNeverServedToAnotherCaller() throws Exception {
		HttpResponse<String> first = get();
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Set-Cookie")).as("Spring Session's cookie").hasValueSatisfying(
				(cookie) -> assertThat(cookie).startsWith("SESSION="));
		assertThat(first.body()).startsWith("welcome, session ");
		this.engine.simulate(1);
		HttpResponse<String> another = get();
		assertThat(another.body()).doesNotContain(first.body());
		assertThat(another.headers().firstValue("Age")).isEmpty();
		assertThat(another.statusCode()).isEqualTo(503);
		assertThat(another.headers().firstValue(DegradationHeaders.DEGRADED)).hasValue("true");
	}

	private HttpResponse<String> get() throws Exception {
		return this.client.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/welcome"))
					.timeout(Duration.ofSeconds(10))
					.build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
