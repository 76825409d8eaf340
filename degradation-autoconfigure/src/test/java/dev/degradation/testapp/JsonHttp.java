package dev.degradation.testapp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A JSON client for the Actuator endpoint of an application on a loopback port.
 */
public final class JsonHttp {

	private static final JsonMapper JSON = JsonMapper.shared();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final int port;

	private final String[] headers;

	public JsonHttp(int port) {
		this(port, new String[0]);
	}

	private JsonHttp(int port, String[] headers) {
		this.port = port;
		this.headers = headers;
	}

	/**
	 * Return a client that sends HTTP Basic credentials with every request.
	 */
	public JsonHttp as(String user, String password) {
		String credentials = java.util.Base64.getEncoder()
			.encodeToString((user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
		return new JsonHttp(this.port, new String[] { "Authorization", "Basic " + credentials });
	}

	public Answer get(String path) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).GET());
	}

	public Answer post(String path, String json) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	public Answer delete(String path) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).DELETE());
	}

	private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
		if (this.headers.length > 0) {
			request.headers(this.headers);
		}
		HttpResponse<String> response = this.client.send(request.timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
		return new Answer(response.statusCode(), response.body());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	/**
	 * A status and a body.
	 *
	 * @param status the status code
	 * @param body the body text
	 */
	public record Answer(int status, String body) {

		public JsonNode json() {
			return JSON.readTree(this.body);
		}

	}

}
