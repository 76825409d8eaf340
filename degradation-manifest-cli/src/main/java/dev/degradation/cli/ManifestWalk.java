package dev.degradation.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;

/**
 * {@code walk}: drives a running service through its shed sequence and checks every route at every
 * level, each request asking for its level itself where the service allows it and the token is
 * given (its level never moves, so a service others use can be walked), and otherwise with the
 * Actuator's simulation: at a level that sheds the route's tier the answer is its
 * fallback (marked degraded, from its tier, with its status), below it the request reaches the
 * application (not degraded). The routes are those of the manifest file when one is given, and
 * otherwise those the service itself reports through its endpoint, so that a CI step after a
 * deployment needs only the service's address. A route that matches no handler of the service
 * fails: below its level it would answer 404, which is not the application's answer. The service
 * is restored as it was found, every failure is printed with the route's position in the
 * manifest, and the status is non-zero on any. Requests carry no credentials and no body; a route
 * behind authentication answers 401/403, which is reported as such.
 */
final class ManifestWalk {

	private static final Pattern SIMULATION = Pattern
		.compile("\"simulation\"\\s*:\\s*\\{\\s*\"enabled\"\\s*:\\s*(true|false)\\s*,\\s*\"level\"\\s*:\\s*(\\d+)");

	private static final Pattern VARIABLE = Pattern.compile("\\{\\*[^}]*}|\\{[^}]*}|\\*\\*|\\*");

	private static final JsonFactory JSON = JsonFactory.builder().build();

	private final @Nullable DegradationManifest manifest;

	private final URI base;

	private final PrintStream out;

	private final Simulating simulating;

	private final HttpClient http = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(5))
		.followRedirects(HttpClient.Redirect.NEVER)
		.build();

	/**
	 * Create a walk.
	 * @param manifest the manifest whose routes are checked, or {@code null} to check the routes
	 * the service reports
	 * @param base the service's URL
	 * @param out where the outcome is printed
	 */
	ManifestWalk(@Nullable DegradationManifest manifest, URI base, PrintStream out) {
		this(manifest, base, out, new Simulating(null, false));
	}

	/**
	 * Create a walk.
	 * @param manifest the manifest whose routes are checked, or {@code null} to check the routes
	 * the service reports
	 * @param base the service's URL
	 * @param out where the outcome is printed
	 * @param simulating how the levels are simulated
	 */
	ManifestWalk(@Nullable DegradationManifest manifest, URI base, PrintStream out, Simulating simulating) {
		this.manifest = manifest;
		this.base = base;
		this.out = out;
		this.simulating = simulating;
	}

	/**
	 * How a walk simulates its levels.
	 *
	 * @param token the service's token for a request's own simulation, or {@code null}
	 * @param insist whether to walk only with each request's own simulation, never moving the
	 * service's level
	 */
	record Simulating(@Nullable String token, boolean insist) {

		@Override
		public String toString() {
			return "Simulating[insist=" + this.insist + "]";
		}

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
			found = send("GET", endpoint, null, null);
		}
		catch (IOException ex) {
			this.out.println(this.base + ": cannot reach the service: " + ex.getMessage());
			return ManifestCli.USAGE_OR_IO_ERROR;
		}
		Matcher simulation = SIMULATION.matcher(found.body());
		if (found.status() != 200 || !simulation.find()) {
			this.out.println(this.base.resolve(endpoint) + " answered " + found.status() + ", not the degradation endpoint: "
					+ "is the starter enabled (degradation.enabled) and the endpoint exposed "
					+ "(management.endpoints.web.exposure.include=degradation)? No route could be checked"
					+ ((this.manifest != null) ? ":" : ""));
			if (this.manifest != null) {
				for (Route route : this.manifest.routes()) {
					this.out.println(this.manifest.source() + ":" + route.position() + ": " + route + ": not checked");
				}
			}
			return ManifestCli.INVALID;
		}
		ServiceManifest service;
		try {
			service = ServiceManifest.read(found.body());
		}
		catch (JacksonException | ClassCastException | NullPointerException ex) {
			this.out.println(this.base.resolve(endpoint) + ": cannot read its routes: " + ex.getMessage());
			return ManifestCli.USAGE_OR_IO_ERROR;
		}
		boolean perRequest = this.simulating.token() != null && service.requestSimulation();
		if (this.simulating.insist() && !perRequest) {
			this.out.println(this.base.resolve(endpoint) + ": the service does not let a request simulate for itself "
					+ "(degradation.simulation.requests.enabled), and --per-request forbids moving its level; "
					+ "no route was checked");
			return ManifestCli.USAGE_OR_IO_ERROR;
		}
		String source = (this.manifest != null) ? this.manifest.source() : service.source();
		List<WalkedTier> tiers = (this.manifest != null) ? WalkedTier.of(this.manifest, service) : service.tiers();
		String restore = "true".equals(simulation.group(1))
				? "{\"enabled\": true, \"level\": " + simulation.group(2) + "}" : "{\"enabled\": false}";
		List<String> failures = new ArrayList<>();
		for (WalkedTier tier : tiers) {
			for (WalkedRoute route : tier.routes()) {
				if (Boolean.FALSE.equals(route.handled())) {
					String failure = route.position() + ": " + route + ": matches no handler of the service, at any "
							+ "level: below its tier's level the application answers it 404; fix the path or method, "
							+ "or remove the route";
					failures.add(failure);
					this.out.println(failure);
				}
			}
		}
		int checks = 0;
		List<Integer> levels = levels(tiers);
		boolean simulated = false;
		try {
			for (int level : levels) {
				String simulate = perRequest ? "level=" + level : null;
				Answer answer = perRequest ? null
						: send("POST", endpoint, "{\"enabled\": true, \"level\": " + level + "}", null);
				if (answer != null && answer.status() != 200) {
					this.out.println(this.base.resolve(endpoint) + " refused the simulation (" + answer.status() + "): "
							+ ((answer.status() == 405 || answer.status() == 404 || answer.status() == 403)
									? "the endpoint is read-only; walk needs "
											+ "management.endpoint.degradation.access=unrestricted (and, behind Spring "
											+ "Security, a caller allowed to write)"
									: answer.body()));
					return ManifestCli.USAGE_OR_IO_ERROR;
				}
				simulated = !perRequest;
				for (WalkedTier tier : tiers) {
					for (WalkedRoute route : tier.routes()) {
						checks++;
						String failure = check(route, tier, level, simulate);
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
			// A walk that could not simulate changed nothing, and has nothing to restore.
			if (simulated) {
				restore(endpoint, restore);
			}
		}
		this.out.println(source + " against " + this.base + ": " + checks + " checks at " + levels.size()
				+ " levels" + (perRequest ? " (each request simulating for itself)" : "") + ", " + (failures.isEmpty() ? "every route degrades as declared" : failures.size() + " failed"));
		return failures.isEmpty() ? ManifestCli.VALID : ManifestCli.INVALID;
	}

	private @Nullable String check(WalkedRoute route, WalkedTier tier, int level, @Nullable String simulate)
			throws IOException {
		Answer answer = send(route.method(), samplePath(route.path()).substring(1), null, simulate);
		boolean shed = tier.priority() <= level;
		boolean degraded = "true".equals(answer.header("X-Degraded"));
		String where = route.position() + ": " + route + " at level " + level + ": ";
		if (answer.status() == 401 || answer.status() == 403) {
			return where + "answered " + answer.status() + ": the route is behind authentication, which walk does not "
					+ "pass";
		}
		if (!shed) {
			if (degraded) {
				return where + "expected the application's answer, but got a fallback ("
						+ answer.header("X-Degradation-Reason") + ")";
			}
			// A route the service says no handler serves has failed once already; where the service
			// does not say, a 404 is taken for the same.
			return (answer.status() == 404 && route.handled() == null) ? where + "answered 404: no handler of the "
					+ "service seems to serve it, so this is not the application's answer" : null;
		}
		if (!degraded) {
			return where + "expected its '" + route.kind() + "' fallback, but the application answered "
					+ answer.status();
		}
		if (!tier.name().equals(answer.header("X-Degradation-Tier"))) {
			return where + "expected tier '" + tier.name() + "', but the fallback says '"
					+ answer.header("X-Degradation-Tier") + "'";
		}
		if (route.status() > 0 && answer.status() != route.status()) {
			return where + "expected status " + route.status() + " of its '" + route.kind() + "' fallback, but got "
					+ answer.status();
		}
		return null;
	}

	/**
	 * 0 (nothing shed) and every tier priority, lowest first.
	 */
	static List<Integer> levels(List<WalkedTier> tiers) {
		TreeSet<Integer> levels = new TreeSet<>();
		levels.add(0);
		tiers.forEach((tier) -> levels.add(tier.priority()));
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
			Answer restored = send("POST", endpoint, body, null);
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

	private Answer send(String method, String path, @Nullable String json, @Nullable String simulate)
			throws IOException {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.base.resolve(path)).timeout(Duration.ofSeconds(10));
		String token = this.simulating.token();
		if (simulate != null && token != null) {
			request.header("X-Degradation-Simulate", simulate).header("X-Degradation-Simulate-Token", token);
		}
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

	/**
	 * A tier as walked.
	 *
	 * @param name the tier's name
	 * @param priority its shed order
	 * @param routes its routes
	 */
	record WalkedTier(String name, int priority, List<WalkedRoute> routes) {

		/**
		 * The tiers of a manifest file, each route with what the service says of its handler.
		 */
		static List<WalkedTier> of(DegradationManifest manifest, ServiceManifest service) {
			List<WalkedTier> tiers = new ArrayList<>();
			for (Tier tier : manifest.tiers()) {
				List<WalkedRoute> routes = new ArrayList<>();
				for (Route route : tier.routes()) {
					routes.add(new WalkedRoute(route.method(), route.path(), route.fallback().kind(),
							route.fallback().answerStatus(), manifest.source() + ":" + route.position(),
							service.handled(route.method(), route.path())));
				}
				tiers.add(new WalkedTier(tier.name(), tier.priority(), routes));
			}
			return tiers;
		}

	}

	/**
	 * A route as walked.
	 *
	 * @param method the HTTP method
	 * @param path the path pattern
	 * @param kind the kind of its fallback
	 * @param status the status of its fallback's answer, 0 when it depends on what it holds
	 * @param position where it is declared, as {@code file:line:column}
	 * @param handled whether a handler of the service serves it, {@code null} when the service does
	 * not say
	 */
	record WalkedRoute(String method, String path, String kind, int status, String position,
			@Nullable Boolean handled) {

		@Override
		public String toString() {
			return this.method + " " + this.path;
		}

	}

	/**
	 * The manifest as the running service reports it through its endpoint.
	 *
	 * @param source where the service loaded it from
	 * @param tiers its tiers, in shed order
	 * @param requestSimulation whether the service lets a request simulate for itself
	 */
	record ServiceManifest(String source, List<WalkedTier> tiers, boolean requestSimulation) {

		@SuppressWarnings("unchecked")
		static ServiceManifest read(String json) {
			Map<String, Object> body = (Map<String, Object>) value(json);
			boolean requestSimulation = body.get("requestSimulation") instanceof Map<?, ?> section
					&& Boolean.TRUE.equals(section.get("enabled"));
			String source = (body.get("manifest") instanceof String text) ? text : "the service's manifest";
			List<WalkedTier> tiers = new ArrayList<>();
			for (Object tierValue : (List<Object>) body.get("tiers")) {
				Map<String, Object> tier = (Map<String, Object>) tierValue;
				List<WalkedRoute> routes = new ArrayList<>();
				for (Object routeValue : (List<Object>) tier.get("routes")) {
					Map<String, Object> route = (Map<String, Object>) routeValue;
					Object status = route.get("fallbackStatus");
					Object position = route.get("position");
					routes.add(new WalkedRoute((String) route.get("method"), (String) route.get("path"),
							(String) route.get("fallback"), (status instanceof Number number) ? number.intValue() : 0,
							source + ((position != null) ? ":" + position : ""),
							(route.get("handled") instanceof Boolean handled) ? handled : null));
				}
				tiers.add(new WalkedTier((String) tier.get("name"), ((Number) tier.get("priority")).intValue(), routes));
			}
			return new ServiceManifest(source, tiers, requestSimulation);
		}

		@Nullable Boolean handled(String method, String path) {
			for (WalkedTier tier : this.tiers) {
				for (WalkedRoute route : tier.routes()) {
					if (route.method().equals(method) && route.path().equals(path)) {
						return route.handled();
					}
				}
			}
			return null;
		}

		/**
		 * A JSON document as maps, lists, strings, numbers, booleans and nulls.
		 */
		private static @Nullable Object value(String json) {
			try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), json.getBytes(StandardCharsets.UTF_8))) {
				parser.nextToken();
				return value(parser);
			}
		}

		private static @Nullable Object value(JsonParser parser) {
			JsonToken token = parser.currentToken();
			if (token == JsonToken.START_OBJECT) {
				Map<String, Object> map = new LinkedHashMap<>();
				while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
					String name = parser.currentName();
					parser.nextToken();
					map.put(name, value(parser));
				}
				return map;
			}
			if (token == JsonToken.START_ARRAY) {
				List<Object> list = new ArrayList<>();
				while (parser.nextToken() != JsonToken.END_ARRAY) {
					list.add(value(parser));
				}
				return list;
			}
			if (token == JsonToken.VALUE_STRING) {
				return parser.getString();
			}
			if (token == JsonToken.VALUE_NUMBER_INT) {
				return parser.getLongValue();
			}
			if (token == JsonToken.VALUE_NUMBER_FLOAT) {
				return parser.getDoubleValue();
			}
			if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
				return token == JsonToken.VALUE_TRUE;
			}
			return null;
		}

	}

}
