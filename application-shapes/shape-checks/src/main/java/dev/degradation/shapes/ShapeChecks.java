package dev.degradation.shapes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.degradation.cli.ManifestCli;
import dev.degradation.fixture.LoopbackDependency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a shape's test checks against its running application, the same for every shape: every
 * shape's manifest (see {@code src/main/resources/degradation-manifest.yaml} of each) holds a
 * best-effort tier with an annotated route ({@code GET /api/annotated}) and an enhanced tier with a
 * functional route ({@code GET /api/functional}, where the stack has functional routes) that
 * requires the dependency {@code inventory}; each fallback answers {@code "source":"degraded"}.
 *
 * @param base the application's address, e.g. {@code http://127.0.0.1:8080}
 * @param management the Actuator's address (the same as {@code base} unless a management port is set)
 * @param authorization the {@code Authorization} header every request sends, or {@code ""} for none
 */
public record ShapeChecks(String base, String management, String authorization) {

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private static final Pattern HANDLED = Pattern.compile("\"handled\"\\s*:\\s*(true|false|null)");

	/**
	 * Checks for an application whose Actuator is on the application's own port.
	 * @param port the application's port
	 * @return the checks
	 */
	public static ShapeChecks onPort(int port) {
		return onPorts(port, port);
	}

	/**
	 * Checks for an application whose Actuator is on a management port of its own.
	 * @param port the application's port
	 * @param managementPort the Actuator's port
	 * @return the checks
	 */
	public static ShapeChecks onPorts(int port, int managementPort) {
		return new ShapeChecks("http://127.0.0.1:" + port, "http://127.0.0.1:" + managementPort, "");
	}

	/**
	 * Return these checks sending HTTP Basic credentials with every request.
	 * @param user the user name
	 * @param password the password
	 * @return the checks
	 */
	public ShapeChecks withBasic(String user, String password) {
		String credentials = java.util.Base64.getEncoder()
			.encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		return new ShapeChecks(this.base, this.management, "Basic " + credentials);
	}

	/**
	 * Assert that a route is served by its handler, not by a fallback.
	 * @param path the route's path
	 */
	public void assertLive(String path) {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).as("GET %s", path).isEmpty();
		assertThat(response.body()).contains("\"source\":\"live\"");
	}

	/**
	 * Assert that a route answers its fallback.
	 * @param path the route's path
	 * @param tier the tier it is shed with
	 */
	public void assertShed(String path, String tier) {
		HttpResponse<String> response = get(path);
		assertThat(response.headers().firstValue("X-Degraded")).as("GET %s", path).hasValue("true");
		assertThat(response.headers().firstValue("X-Degradation-Tier")).hasValue(tier);
		assertThat(response.body()).contains("\"source\":\"degraded\"");
	}

	/**
	 * Shed the best-effort tier by simulation through the Actuator, see its route answer the
	 * fallback while the enhanced one is served, and end the simulation.
	 */
	public void assertShedBySimulation() {
		assertLive("/api/annotated");
		HttpResponse<String> simulated = post("/actuator/degradation", "{\"enabled\": true, \"level\": 1}");
		assertThat(simulated.statusCode()).as(simulated.body()).isEqualTo(200);
		try {
			assertShed("/api/annotated", "best-effort");
			assertLive("/api/functional");
		}
		finally {
			assertThat(post("/actuator/degradation", "{\"enabled\": false}").statusCode()).isEqualTo(200);
		}
		assertLive("/api/annotated");
	}

	/**
	 * Simulate a level through the Actuator, or end the simulation with level 0.
	 * @param level the level
	 */
	public void simulate(int level) {
		String body = (level > 0) ? "{\"enabled\": true, \"level\": " + level + "}" : "{\"enabled\": false}";
		HttpResponse<String> simulated = post("/actuator/degradation", body);
		assertThat(simulated.statusCode()).as(simulated.body()).isEqualTo(200);
	}

	/**
	 * Make the dependency fail and see the route that requires it shed by the starter's probes,
	 * and only that one.
	 * @param dependency the route's dependency
	 */
	public void assertShedByFailedDependency(LoopbackDependency dependency) {
		assertLive("/api/functional");
		dependency.answer(LoopbackDependency.FAILING);
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertShed("/api/functional", "enhanced"));
		assertLive("/api/annotated");
	}

	/**
	 * Call a route that requires a dependency whose instance was just killed, several times, and
	 * assert that its declared fallback answers from the first failed calls on: at most one of
	 * the answers is anything else (a call made before the failure was known).
	 * @param path the route's path
	 * @param tier the tier it is shed with
	 */
	public void assertFallbackFromTheFirstFailedCalls(String path, String tier) {
		List<String> others = new ArrayList<>();
		for (int call = 0; call < 6; call++) {
			HttpResponse<String> response = get(path);
			boolean fallback = response.headers().firstValue("X-Degraded").orElse("").equals("true")
					&& response.headers().firstValue("X-Degradation-Tier").orElse("").equals(tier)
					&& response.body().contains("\"source\":\"degraded\"");
			if (!fallback) {
				others.add(response.statusCode() + " " + response.headers().map() + " " + response.body());
			}
		}
		assertThat(others).as("answers of GET %s other than its fallback", path).hasSizeLessThanOrEqualTo(1);
	}

	/**
	 * Return a dependency's state as the endpoint reports it.
	 * @param dependency the dependency's name
	 * @return its state, such as {@code HEALTHY} or {@code FAILED}
	 */
	public String dependencyState(String dependency) {
		HttpResponse<String> endpoint = send(HttpRequest.newBuilder(URI.create(this.management + "/actuator/degradation")));
		assertThat(endpoint.statusCode()).isEqualTo(200);
		Matcher state = Pattern.compile("\"" + Pattern.quote(dependency) + "\"\\s*:\\s*\\{\\s*\"state\"\\s*:\\s*\"([A-Z]+)\"")
			.matcher(endpoint.body());
		assertThat(state.find()).as(endpoint.body()).isTrue();
		return state.group(1);
	}

	/**
	 * Assert that the endpoint never reports a dependency healthy over a while, polled all along:
	 * for a dependency whose every instance is dead, through its breaker's open and half-open.
	 * @param dependency the dependency's name
	 * @param during how long it is watched
	 */
	public void assertNeverHealthy(String dependency, Duration during) {
		await().during(during)
			.atMost(during.plusSeconds(5))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> !dependencyState(dependency).equals("HEALTHY"));
	}

	/**
	 * Assert that the endpoint reports every route of the manifest as served by a handler of the
	 * application.
	 * @param routes the number of routes of the manifest
	 */
	public void assertEveryRouteHandled(int routes) {
		HttpResponse<String> endpoint = send(HttpRequest.newBuilder(URI.create(this.management + "/actuator/degradation")));
		assertThat(endpoint.statusCode()).isEqualTo(200);
		Matcher handled = HANDLED.matcher(endpoint.body());
		int count = 0;
		while (handled.find()) {
			assertThat(handled.group(1)).as(endpoint.body()).isEqualTo("true");
			count++;
		}
		assertThat(count).as(endpoint.body()).isEqualTo(routes);
	}

	/**
	 * Run {@code walk} (the manifest command line) in this process against the running application
	 * and assert that it exits 0: every route degrades as declared at every level.
	 */
	public void assertWalkPasses() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ManifestCli.run(new String[] { "walk", "--base-url", this.base },
				new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
		assertThat(status).as("walk printed:%n%s%s", out.toString(StandardCharsets.UTF_8),
				err.toString(StandardCharsets.UTF_8))
			.isZero();
	}

	/**
	 * Send a GET to the application.
	 * @param path the path
	 * @return the response
	 */
	public HttpResponse<String> get(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)));
	}

	private HttpResponse<String> post(String path, String json) {
		return send(HttpRequest.newBuilder(URI.create(this.management + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	private HttpResponse<String> send(HttpRequest.Builder request) {
		if (!this.authorization.isEmpty()) {
			request.header("Authorization", this.authorization);
		}
		try {
			return http.send(request.timeout(Duration.ofSeconds(10)).build(),
					HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
