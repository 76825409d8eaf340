package dev.degradation.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real HTTP calls to a running sample shop on 127.0.0.1: its routes, the Actuator calls that
 * switch its simulated shed level and read its state, and the demo calls that break its embedded
 * dependencies.
 */
final class ShopClient {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(TIMEOUT)
		.build();

	private final String baseUrl;

	ShopClient(int port) {
		this.baseUrl = "http://127.0.0.1:" + port;
	}

	HttpResponse<String> get(String path) {
		return send(request(path).GET().build());
	}

	HttpResponse<String> post(String path, String json) {
		return send(request(path).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build());
	}

	HttpResponse<String> put(String path, String json) {
		return send(request(path).header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(json))
			.build());
	}

	HttpResponse<String> send(HttpRequest request) {
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	void simulate(int level) {
		HttpResponse<String> response = post("/actuator/degradation",
				"{\"enabled\": true, \"level\": " + level + "}");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
	}

	void stopSimulation() {
		HttpResponse<String> response = post("/actuator/degradation", "{\"enabled\": false}");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
	}

	void switchDependency(String name, String mode) {
		HttpResponse<String> response = put("/demo/dependencies/" + name, "{\"mode\": \"" + mode + "\"}");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
	}

	JsonNode degradation() {
		HttpResponse<String> response = get("/actuator/degradation");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json(response);
	}

	static JsonNode json(String text) {
		return JSON.readTree(text);
	}

	static JsonNode json(HttpResponse<String> response) {
		return json(response.body());
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create(this.baseUrl + path)).timeout(TIMEOUT);
	}

}
