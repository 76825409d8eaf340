package dev.degradation.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;

/**
 * {@code walk}: drives a running service through its shed sequence with the Actuator's simulation
 * and checks every route of the manifest at every level: at a level that sheds the route's tier
 * the answer is its fallback (marked degraded, from its tier, with its status), below it the
 * request reaches the application (not degraded). The service is restored as it was found, every
 * failure is printed with the route's position in the manifest, and the status is non-zero on any.
 * Requests carry no credentials and no body; a route behind authentication answers 401/403,
 * which is reported as such.
 */
final class ManifestWalk {

	private static final Pattern SIMULATION = Pattern
		.compile("\"simulation\"\\s*:\\s*\\{\\s*\"enabled\"\\s*:\\s*(true|false)\\s*,\\s*\"level\"\\s*:\\s*(\\d+)");

	private static final Pattern VARIABLE = Pattern.compile("\\{\\*[^}]*}|\\{[^}]*}|\\*\\*|\\*");

	private final DegradationManifest manifest;

	private final URI base;

	private final PrintStream out;

	private final HttpClient http = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(5))
		.followRedirects(HttpClient.Redirect.NEVER)
		.build();

	ManifestWalk(DegradationManifest manifest, URI base, PrintStream out) {
		this.manifest = manifest;
		this.base = base;
		this.out = out;
	}

	/**
	 * Walk the service.
	 * @return {@link ManifestCli#VALID} when every route degrades as declared,
	 * {@link ManifestCli#INVALID} when one does not, {@link ManifestCli#USAGE_OR_IO_ERROR} when
	 * the service cannot be driven
	 */
	int walk() {
		// Relative to the base URL, so that a context path in it is kept.
		String endpoint = "actuator/degradation";
		Answer found;
		try {
			found = send("GET", endpoint, null);
		}
		catch (IOException ex) {
			this.out.println(this.base + ": cannot reach the service: " + ex.getMessage());
			return ManifestCli.USAGE_OR_IO_ERROR;
		}
		Matcher simulation = SIMULATION.matcher(found.body());
		if (found.status() != 200 || !simulation.find()) {
			this.out.println(this.base.resolve(endpoint) + " answered " + found.status() + ", not the degradation endpoint: "
					+ "is the starter enabled (degradation.enabled) and the endpoint exposed "
					+ "(management.endpoints.web.exposure.include=degradation)? No route could be checked:");
			for (Route route : this.manifest.routes()) {
				this.out.println(position(route) + ": " + route + ": not checked");
			}
			return ManifestCli.INVALID;
		}
		String restore = "true".equals(simulation.group(1))
				? "{\"enabled\": true, \"level\": " + simulation.group(2) + "}" : "{\"enabled\": false}";
		List<String> failures = new ArrayList<>();
		int checks = 0;
		try {
			for (int level : levels()) {
				Answer simulated = send("POST", endpoint, "{\"enabled\": true, \"level\": " + level + "}");
				if (simulated.status() != 200) {
					this.out.println(this.base.resolve(endpoint) + " refused the simulation (" + simulated.status() + "): "
							+ ((simulated.status() == 405 || simulated.status() == 404 || simulated.status() == 403)
									? "the endpoint is read-only; walk needs "
											+ "management.endpoint.degradation.access=unrestricted (and, behind Spring "
											+ "Security, a caller allowed to write)"
									: simulated.body()));
					return ManifestCli.USAGE_OR_IO_ERROR;
				}
				for (Tier tier : this.manifest.tiers()) {
					for (Route route : tier.routes()) {
						checks++;
						String failure = check(route, tier, level);
						if (failure != null) {
							failures.add(failure);
							this.out.println(failure);
						}
					}
				}
			}
		}
		catch (IOException ex) {
			this.out.println(this.base + ": the service stopped answering: " + ex.getMessage());
			return ManifestCli.USAGE_OR_IO_ERROR;
		}
		finally {
			restore(endpoint, restore);
		}
		this.out.println(this.manifest.source() + " against " + this.base + ": " + checks + " checks at "
				+ levels().size() + " levels, " + (failures.isEmpty() ? "every route degrades as declared"
						: failures.size() + " failed"));
		return failures.isEmpty() ? ManifestCli.VALID : ManifestCli.INVALID;
	}

	private @Nullable String check(Route route, Tier tier, int level) throws IOException {
		Answer answer = send(route.method(), samplePath(route.path()).substring(1), null);
		boolean shed = tier.priority() <= level;
		boolean degraded = "true".equals(answer.header("X-Degraded"));
		String where = position(route) + ": " + route + " at level " + level + ": ";
		if (answer.status() == 401 || answer.status() == 403) {
			return where + "answered " + answer.status() + ": the route is behind authentication, which walk does not "
					+ "pass";
		}
		if (!shed) {
			return degraded ? where + "expected the application's answer, but got a fallback ("
					+ answer.header("X-Degradation-Reason") + ")" : null;
		}
		if (!degraded) {
			return where + "expected its '" + route.fallback().kind() + "' fallback, but the application answered "
					+ answer.status();
		}
		if (!tier.name().equals(answer.header("X-Degradation-Tier"))) {
			return where + "expected tier '" + tier.name() + "', but the fallback says '"
					+ answer.header("X-Degradation-Tier") + "'";
		}
		int status = expectedStatus(route.fallback());
		if (status > 0 && answer.status() != status) {
			return where + "expected status " + status + " of its '" + route.fallback().kind() + "' fallback, but got "
					+ answer.status();
		}
		return null;
	}

	private static int expectedStatus(Fallback fallback) {
		if (fallback instanceof Fallback.Drop) {
			return 204;
		}
		if (fallback instanceof Fallback.Static staticFallback) {
			return staticFallback.status();
		}
		if (fallback instanceof Fallback.Unavailable) {
			return 503;
		}
		// A stale route answers its copy, its static answer or 503, depending on what it holds.
		return 0;
	}

	/**
	 * 0 (nothing shed) and every tier priority, lowest first.
	 */
	List<Integer> levels() {
		TreeSet<Integer> levels = new TreeSet<>();
		levels.add(0);
		this.manifest.tiers().forEach((tier) -> levels.add(tier.priority()));
		return List.copyOf(levels);
	}

	/**
	 * A request path the pattern matches: {@code 1} for a variable, {@code x} for a wildcard.
	 */
	static String samplePath(String pattern) {
		Matcher matcher = VARIABLE.matcher(pattern);
		StringBuilder path = new StringBuilder();
		while (matcher.find()) {
			matcher.appendReplacement(path, matcher.group().startsWith("{") && !matcher.group().startsWith("{*")
					? "1" : "x");
		}
		matcher.appendTail(path);
		return path.toString();
	}

	private void restore(String endpoint, String body) {
		try {
			Answer restored = send("POST", endpoint, body);
			if (restored.status() != 200) {
				this.out.println(this.base.resolve(endpoint) + ": could not restore the simulation as it was (" + body + "): "
						+ restored.status());
			}
		}
		catch (IOException ex) {
			this.out.println(this.base.resolve(endpoint) + ": could not restore the simulation as it was (" + body + "): "
					+ ex.getMessage());
		}
	}

	private String position(Route route) {
		return this.manifest.source() + ":" + route.position();
	}

	private Answer send(String method, String path, @Nullable String json) throws IOException {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.base.resolve(path)).timeout(Duration.ofSeconds(10));
		if (json != null) {
			request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
		}
		else {
			request.method(method, HttpRequest.BodyPublishers.noBody());
		}
		try {
			HttpResponse<String> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return new Answer(response.statusCode(), response.body(), response);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted", ex);
		}
	}

	private record Answer(int status, String body, HttpResponse<String> response) {

		@Nullable String header(String name) {
			return this.response.headers().firstValue(name.toLowerCase(Locale.ROOT)).orElse(null);
		}

	}

}
