package dev.degradation.sample.embedded;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The embedded dependencies server on its own, without Spring.
 */
class DependencyServerTests {

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final DependencyServer server = DependencyServer.start();

	@AfterEach
	void stopServer() {
		this.server.stop();
	}

	@Test
	void listensOnLoopbackOnly() {
		assertThat(this.server.baseUrl().getHost()).isEqualTo("127.0.0.1");
		assertThat(this.server.baseUrl().getPort()).isPositive();
	}

	@Test
	void playsTheShopsThreeDependenciesAllHealthy() {
		assertThat(this.server.dependencies()).extracting(EmbeddedDependency::name)
			.containsExactly("analytics-collector", "recommendations-api", "personalization-service");
		assertThat(this.server.dependencies()).extracting(EmbeddedDependency::mode)
			.containsOnly(DependencyMode.HEALTHY);
	}

	@Test
	void healthyDependencyAnswersItsHealthAndDataEndpoints() throws Exception {
		assertThat(get("/recommendations-api/healthz").statusCode()).isEqualTo(200);
		HttpResponse<String> data = get("/recommendations-api/recommendations?user=alice");
		assertThat(data.statusCode()).isEqualTo(200);
		assertThat(data.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(data.body()).isEqualTo("{\"items\":[\"p-2\",\"p-3\"]}");
		assertThat(post("/analytics-collector/events", "{\"name\":\"product-viewed\"}").statusCode()).isEqualTo(202);
	}

	@Test
	void failingDependencyAnswers500OnEveryEndpointWhileTheOthersStayHealthy() throws Exception {
		this.server.dependency("recommendations-api").mode(DependencyMode.FAILING);
		assertThat(get("/recommendations-api/healthz").statusCode()).isEqualTo(500);
		assertThat(get("/recommendations-api/recommendations").statusCode()).isEqualTo(500);
		assertThat(get("/personalization-service/healthz").statusCode()).isEqualTo(200);
		assertThat(get("/analytics-collector/healthz").statusCode()).isEqualTo(200);
	}

	@Test
	void dependencyRecoversWhenSwitchedBackToHealthy() throws Exception {
		EmbeddedDependency analytics = this.server.dependency("analytics-collector");
		analytics.mode(DependencyMode.FAILING);
		assertThat(get("/analytics-collector/healthz").statusCode()).isEqualTo(500);
		analytics.mode(DependencyMode.HEALTHY);
		assertThat(get("/analytics-collector/healthz").statusCode()).isEqualTo(200);
	}

	@Test
	void unknownPathIsNotFoundAndWrongMethodIsNotAllowed() throws Exception {
		assertThat(get("/recommendations-api/nothing-here").statusCode()).isEqualTo(404);
		assertThat(get("/unknown-service/healthz").statusCode()).isEqualTo(404);
		assertThat(get("/analytics-collector/events").statusCode()).isEqualTo(405);
	}

	@Test
	void unknownDependencyNameIsRejected() {
		assertThatExceptionOfType(NoSuchElementException.class).isThrownBy(() -> this.server.dependency("nope"))
			.withMessageContaining("recommendations-api");
	}

	@Test
	void stoppedServerRefusesConnectionsAndStoppingAgainDoesNothing() {
		this.server.stop();
		this.server.stop();
		assertThat(this.server.isStopped()).isTrue();
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> get("/analytics-collector/healthz"));
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
		return this.http.send(request(path).POST(HttpRequest.BodyPublishers.ofString(json)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create(this.server.baseUrl() + path)).timeout(Duration.ofSeconds(5));
	}

}
