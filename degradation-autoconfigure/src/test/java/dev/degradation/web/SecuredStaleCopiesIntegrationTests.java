package dev.degradation.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.ApiKeySecuredTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The copies of a {@code stale} route of an API whose callers Spring Security authenticates by an
 * API key (no {@code Authorization}, no cookie, no {@code Vary}): once the route is shed, a caller
 * is served the copy of its own last answer and never another caller's. On Spring MVC here, on
 * WebFlux in {@link ReactiveSecuredStaleCopiesIntegrationTests}.
 */
@SpringBootTest(classes = ApiKeySecuredTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"degradation.manifest=classpath:manifests/secured-stale.yaml" })
class SecuredStaleCopiesIntegrationTests {

	private static final String ALICE = "key-of-alice";

	private static final String BOB = "key-of-bob";

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
	void aCallerIsNeverServedTheCopyOfAnotherCallersAnswer() throws Exception {
		HttpResponse<String> alices = get("/api/accounts/1/statement", ALICE);
		assertThat(alices.statusCode()).isEqualTo(200);
		assertThat(alices.body()).contains("\"owner\":\"alice\"");
		this.engine.simulate(1);
		HttpResponse<String> bobs = get("/api/accounts/1/statement", BOB);
		assertThat(bobs.body()).doesNotContain("alice");
		assertThat(bobs.headers().firstValue("Age")).isEmpty();
		assertThat(bobs.statusCode()).isEqualTo(503);
		assertThat(bobs.headers().firstValue("Retry-After")).hasValue("7");
		assertThat(bobs.headers().firstValue(DegradationHeaders.DEGRADED)).hasValue("true");
	}

	@Test
	void eachCallerIsServedTheCopyOfItsOwnLastAnswer() throws Exception {
		HttpResponse<String> alices = get("/api/accounts/2/statement", ALICE);
		HttpResponse<String> bobs = get("/api/accounts/2/statement", BOB);
		assertThat(bobs.body()).contains("\"owner\":\"bob\"");
		this.engine.simulate(1);
		HttpResponse<String> alicesCopy = get("/api/accounts/2/statement", ALICE);
		assertThat(alicesCopy.statusCode()).isEqualTo(200);
		assertThat(alicesCopy.headers().firstValue("Age")).isPresent();
		assertThat(alicesCopy.body()).isEqualTo(alices.body());
		HttpResponse<String> bobsCopy = get("/api/accounts/2/statement", BOB);
		assertThat(bobsCopy.headers().firstValue("Age")).isPresent();
		assertThat(bobsCopy.body()).isEqualTo(bobs.body());
	}

	@Test
	void anUnauthenticatedRequestGetsNoCopy() throws Exception {
		get("/api/accounts/3/statement", ALICE);
		this.engine.simulate(1);
		HttpResponse<String> anonymous = get("/api/accounts/3/statement", null);
		assertThat(anonymous.statusCode()).isIn(401, 403);
		assertThat(anonymous.body()).doesNotContain("alice");
		HttpResponse<String> unknownKey = get("/api/accounts/3/statement", "key-of-nobody");
		assertThat(unknownKey.statusCode()).isIn(401, 403);
		assertThat(unknownKey.body()).doesNotContain("alice");
	}

	private HttpResponse<String> get(String path, @Nullable String apiKey) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10));
		if (apiKey != null) {
			request.header(ApiKeySecuredTestApplication.API_KEY_HEADER, apiKey);
		}
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
