package dev.degradation.sample.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;
import org.jspecify.annotations.Nullable;

/**
 * One dependency played by the {@link DependencyServer}: a health endpoint at
 * {@code /<name>/healthz} and one data endpoint, both answering according to the dependency's
 * {@link DependencyMode}. The answers are fixed: what the shop and the starter care about is
 * whether a call succeeds, not what it returns.
 */
public final class EmbeddedDependency {

	/** Name of the dependency that receives tracked events and assigns A/B variants. */
	public static final String ANALYTICS_COLLECTOR = "analytics-collector";

	/** Name of the dependency that recommends products. */
	public static final String RECOMMENDATIONS_API = "recommendations-api";

	/** Name of the dependency that holds customer profiles. */
	public static final String PERSONALIZATION_SERVICE = "personalization-service";

	/** Path of the health endpoint, below the dependency's own path. */
	public static final String HEALTH_PATH = "/healthz";

	private final String name;

	private final DataEndpoint[] endpoints;

	private volatile DependencyMode mode = DependencyMode.HEALTHY;

	private EmbeddedDependency(String name, DataEndpoint... endpoints) {
		this.name = name;
		this.endpoints = endpoints;
	}

	static EmbeddedDependency analyticsCollector() {
		return new EmbeddedDependency(ANALYTICS_COLLECTOR, new DataEndpoint("POST", "/events", 202, null),
				new DataEndpoint("GET", "/assignments", 200, "{\"variant\":\"treatment\"}"));
	}

	static EmbeddedDependency recommendationsApi() {
		return new EmbeddedDependency(RECOMMENDATIONS_API,
				new DataEndpoint("GET", "/recommendations", 200, "{\"items\":[\"p-2\",\"p-3\"]}"));
	}

	static EmbeddedDependency personalizationService() {
		return new EmbeddedDependency(PERSONALIZATION_SERVICE,
				new DataEndpoint("GET", "/profiles", 200, "{\"profile\":\"outdoor-enthusiast\"}"));
	}

	/**
	 * Return the name of this dependency, as used in the manifest and in its URL paths.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return how this dependency behaves now.
	 * @return the mode
	 */
	public DependencyMode mode() {
		return this.mode;
	}

	/**
	 * Change how this dependency behaves, from the next request on.
	 * @param mode the new mode
	 */
	public void mode(DependencyMode mode) {
		this.mode = mode;
	}

	void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			// Read the request body fully so that the client can reuse the connection.
			exchange.getRequestBody().transferTo(OutputStream.nullOutputStream());
			switch (this.mode) {
				case HEALTHY -> answerHealthy(exchange);
				case FAILING -> send(exchange, 500, "{\"error\":\"simulated failure of " + this.name + "\"}");
			}
		}
	}

	private void answerHealthy(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath().substring(this.name.length() + 1);
		String method = exchange.getRequestMethod();
		if (path.equals(HEALTH_PATH)) {
			send(exchange, method.equals("GET") ? 200 : 405, method.equals("GET") ? "{\"status\":\"UP\"}" : null);
			return;
		}
		for (DataEndpoint endpoint : this.endpoints) {
			if (endpoint.path().equals(path)) {
				boolean allowed = endpoint.method().equals(method);
				send(exchange, allowed ? endpoint.status() : 405, allowed ? endpoint.json() : null);
				return;
			}
		}
		send(exchange, 404, null);
	}

	private static void send(HttpExchange exchange, int status, @Nullable String json) throws IOException {
		if (json == null) {
			exchange.sendResponseHeaders(status, -1);
			return;
		}
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, body.length);
		exchange.getResponseBody().write(body);
	}

	@Override
	public String toString() {
		return this.name + " (" + this.mode + ")";
	}

	private record DataEndpoint(String method, String path, int status, @Nullable String json) {

	}

}
