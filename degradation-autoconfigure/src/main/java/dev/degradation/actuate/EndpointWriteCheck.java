package dev.degradation.actuate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.endpoint.web.EndpointMediaTypes;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;

/**
 * The rules of a write to the {@code degradation} endpoint over the web, written once for both web
 * stacks: each stack's filter ({@link EndpointWriteFilter} on Spring MVC,
 * {@link EndpointWriteWebFilter} on WebFlux) reads the request, asks these rules, and either
 * answers the {@link Refusal} or passes the body it read on to the Actuator.
 *
 * <ul>
 * <li>The URL names the target, and the target is decided once, on the path Spring routes: each
 * segment decoded and stripped of its path parameters ({@code ;a=b}), as the Actuator's
 * {@code PathPattern} binds its selectors. Whatever form the URL takes (percent-encoding, path
 * parameters, a doubled or trailing slash), the check sees the section and name the Actuator
 * binds; a write to a form the endpoint does not take is refused with the forms it takes, never
 * passed on.</li>
 * <li>Nothing but the URL supplies the target: a query string on any write is refused (the Actuator
 * binds query parameters over the URL's selectors), and so is a body key that names one
 * ({@code name}, {@code section}).</li>
 * <li>Every key has one JSON type: {@code enabled} a boolean, {@code level} a whole number from 0,
 * {@code state} and {@code ttl} strings; a refusal names the key, the value and what is
 * accepted.</li>
 * <li>A body that is not a JSON object and a body over {@value #MAX_BODY_BYTES} bytes are refused,
 * the latter before it is read when its length is declared; a write without a
 * {@code Content-Type} is read as JSON (so that {@code curl -X POST .../manifest} works), one of a
 * media type the Actuator does not consume is refused.</li>
 * <li>While the endpoint is read-only, a write answers {@code 405} with the property that grants
 * writes.</li>
 * </ul>
 */
public final class EndpointWriteCheck {

	/** The property that grants the endpoint's writes. */
	public static final String ACCESS_PROPERTY = "management.endpoint.degradation.access";

	/** The largest body a write may have; a write reads at most one byte more. */
	public static final int MAX_BODY_BYTES = 16 * 1024;

	private static final String SIMULATION_EXAMPLE = "{\"enabled\": true, \"level\": 2}";

	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private static final List<MediaType> CONSUMED = EndpointMediaTypes.DEFAULT.getConsumed()
		.stream()
		.map(MediaType::parseMediaType)
		.toList();

	private final String endpointPath;

	private final List<String> endpointSegments;

	/**
	 * Create the rules for the endpoint at a path.
	 * @param endpointPath the endpoint's path within the application, such as
	 * {@code /actuator/degradation}
	 */
	public EndpointWriteCheck(String endpointPath) {
		this.endpointPath = endpointPath;
		this.endpointSegments = segments(PathContainer.parsePath(endpointPath));
	}

	/**
	 * Whether a request of this method to this target is a write these rules check.
	 * @param method the request's method
	 * @param target the request's {@link #target(String) target}
	 * @return whether to check it
	 */
	public boolean checks(String method, @Nullable String target) {
		return ("POST".equals(method) || "DELETE".equals(method)) && target != null;
	}

	/**
	 * The part of the path after the endpoint's, as the Actuator binds it: {@code ""},
	 * {@code manifest}, {@code switches/directory}. Each segment is decoded and stripped of its path
	 * parameters, and empty segments are left out, so that no form of a URL names another target
	 * than the one the Actuator's selectors receive.
	 * @param path the request's path within the application (without the context path), as the
	 * web stack parsed it
	 * @return the target, or {@code null} outside the endpoint
	 */
	public @Nullable String target(PathContainer path) {
		List<String> segments = segments(path);
		if (segments.size() < this.endpointSegments.size()
				|| !segments.subList(0, this.endpointSegments.size()).equals(this.endpointSegments)) {
			return null;
		}
		return String.join("/", segments.subList(this.endpointSegments.size(), segments.size()));
	}

	private static List<String> segments(PathContainer path) {
		List<String> segments = new ArrayList<>();
		for (PathContainer.Element element : path.elements()) {
			if (element instanceof PathContainer.PathSegment segment && !segment.valueToMatch().isEmpty()) {
				segments.add(segment.valueToMatch());
			}
		}
		return segments;
	}

	/**
	 * The pattern the Actuator maps a write to, so that a refused write is measured as the write
	 * it is, not as an unknown URI.
	 * @param target the request's target
	 * @return the pattern
	 */
	public String pattern(@Nullable String target) {
		int segments = (target == null || target.isEmpty()) ? 0 : target.split("/", -1).length;
		return switch (segments) {
			case 0 -> this.endpointPath;
			case 1 -> this.endpointPath + "/{section}";
			default -> this.endpointPath + "/{section}/{name}";
		};
	}

	/**
	 * What is wrong with a write before its body is read: the endpoint is read-only, the target is
	 * no write the endpoint takes, a query string would supply values (the Actuator binds query
	 * parameters over the URL's selectors), or the body of a {@code POST} is of a media type the
	 * Actuator does not consume, or declared larger than {@value #MAX_BODY_BYTES} bytes.
	 * @param method the request's method
	 * @param target the request's {@link #target(PathContainer) target}
	 * @param query the request's raw query string, or {@code null} for none
	 * @param writable whether the endpoint takes writes over the web now
	 * @param contentType the request's {@code Content-Type}, or {@code null} for none
	 * @param contentLength the body's declared length, or {@code -1} when it is not declared
	 * @return the refusal, or {@code null} to go on: to read the body of a {@code POST}, to pass a
	 * {@code DELETE} on
	 */
	public @Nullable Refusal beforeBody(String method, String target, @Nullable String query, boolean writable,
			@Nullable String contentType, long contentLength) {
		if (!writable) {
			return new Refusal(405, "Method Not Allowed",
					"The degradation endpoint is read-only: its writes (simulation, forcing a dependency, switches, "
							+ "manifest reload, reset) take '" + ACCESS_PROPERTY + "=unrestricted', and should then "
							+ "be secured");
		}
		String[] segments = target.isEmpty() ? new String[0] : target.split("/", -1);
		if (("POST".equals(method) ? keys(segments) : deleted(segments)) == null) {
			return new Refusal(404, "Not Found", "No " + method + " at '" + this.endpointPath
					+ (target.isEmpty() ? "" : "/" + target) + "'; the endpoint takes " + forms(method));
		}
		if (query != null && !query.isEmpty()) {
			return new Refusal(400, "Bad Request", "A write takes no query string ('" + query
					+ "'): the URL's path names the target, and a POST takes its values in a JSON body");
		}
		if ("POST".equals(method) && contentType != null && !isJson(contentType)) {
			return new Refusal(415, "Unsupported Media Type", "Writes take a JSON body (Content-Type: "
					+ MediaType.APPLICATION_JSON_VALUE + "), not " + contentType + "; accepted: "
					+ String.join(", ", EndpointMediaTypes.DEFAULT.getConsumed()));
		}
		if ("POST".equals(method) && contentLength > MAX_BODY_BYTES) {
			return tooLarge();
		}
		return null;
	}

	private static @Nullable Boolean deleted(String[] segments) {
		if (segments.length == 0) {
			return Boolean.TRUE;
		}
		return (segments.length == 2 && (segments[0].equals(DegradationEndpoint.DEPENDENCIES)
				|| segments[0].equals(DegradationEndpoint.SWITCHES))) ? Boolean.TRUE : null;
	}

	private String forms(String method) {
		String base = this.endpointPath;
		if ("POST".equals(method)) {
			return "POST " + base + " (simulation), " + base + "/" + DegradationEndpoint.MANIFEST + " (reload), "
					+ base + "/" + DegradationEndpoint.SWITCHES + "/{tier-or-route} and " + base + "/"
					+ DegradationEndpoint.DEPENDENCIES + "/{dependency}";
		}
		return "DELETE " + base + " (reset), " + base + "/" + DegradationEndpoint.SWITCHES + "/{tier-or-route} and "
				+ base + "/" + DegradationEndpoint.DEPENDENCIES + "/{dependency}";
	}

	/**
	 * What is wrong with a {@code POST}'s values.
	 * @param target the request's target, which {@link #beforeBody} let through
	 * @param body the body as read: at most {@value #MAX_BODY_BYTES} bytes and one more, which
	 * tells that it was larger
	 * @return the refusal, or {@code null} to pass the write on
	 */
	public @Nullable Refusal body(String target, byte[] body) {
		if (body.length > MAX_BODY_BYTES) {
			return tooLarge();
		}
		String problem = problem(target, body);
		return (problem != null) ? new Refusal(400, "Bad Request", problem) : null;
	}

	/**
	 * The refusal of a body over {@value #MAX_BODY_BYTES} bytes, for a stack that stops reading
	 * at the limit.
	 * @return the refusal
	 */
	public Refusal tooLarge() {
		return new Refusal(413, "Content Too Large", "The body is larger than " + MAX_BODY_BYTES + " bytes");
	}

	private @Nullable String problem(String target, byte[] body) {
		String[] segments = target.isEmpty() ? new String[0] : target.split("/", -1);
		Map<String, Key> keys = keys(segments);
		if (keys == null) {
			return "No write at this target: " + forms("POST");
		}
		JsonNode json;
		try {
			String text = new String(body, StandardCharsets.UTF_8);
			json = text.isBlank() ? JSON.createObjectNode() : JSON.readTree(text);
		}
		catch (JacksonException ex) {
			return "The body is not valid JSON (" + ex.getOriginalMessage() + ((ex.getLocation() != null)
					? " at line " + ex.getLocation().getLineNr() + ", column " + ex.getLocation().getColumnNr() : "")
					+ "); " + example(segments);
		}
		if (!json.isObject()) {
			return "The body must be a JSON object, but it is " + describe(json) + "; " + example(segments);
		}
		List<String> problems = new ArrayList<>();
		for (Map.Entry<String, JsonNode> property : json.properties()) {
			String name = property.getKey();
			Key key = keys.get(name);
			if (name.equals("name") || name.equals("section")) {
				problems.add("'" + name + "' is not taken in the body: the URL names the target ("
						+ (target.isEmpty() ? "the simulation" : target) + ")");
			}
			else if (key == null) {
				problems.add("Unknown key '" + name + "'; " + takes(keys));
			}
			else if (!property.getValue().isNull()) {
				String typeProblem = key.check(name, property.getValue());
				if (typeProblem != null) {
					problems.add(typeProblem);
				}
			}
		}
		keys.forEach((name, key) -> {
			if (key.required() && (json.get(name) == null || json.get(name).isNull())) {
				problems.add("'" + name + "' is required; " + example(segments));
			}
		});
		return problems.isEmpty() ? null : String.join("; ", problems);
	}

	/**
	 * The keys a write takes, by its target; {@code null} for a path that is no write.
	 */
	private static @Nullable Map<String, Key> keys(String[] segments) {
		Map<String, Key> keys = new LinkedHashMap<>();
		if (segments.length == 0) {
			keys.put("enabled", Key.BOOLEAN_REQUIRED);
			keys.put("level", Key.LEVEL);
			keys.put("ttl", Key.DURATION);
			return keys;
		}
		if (segments.length == 1 && segments[0].equals(DegradationEndpoint.MANIFEST)) {
			return keys;
		}
		if (segments.length == 2 && segments[0].equals(DegradationEndpoint.DEPENDENCIES)) {
			keys.put("state", Key.DEPENDENCY_STATE);
			return keys;
		}
		if (segments.length == 2 && segments[0].equals(DegradationEndpoint.SWITCHES)) {
			keys.put("state", Key.SWITCH_STATE);
			keys.put("ttl", Key.DURATION);
			return keys;
		}
		return null;
	}

	private static String takes(Map<String, Key> keys) {
		return keys.isEmpty() ? "this operation takes no key (an empty body or {})"
				: "this operation takes " + String.join(", ", keys.keySet().stream().map((key) -> "'" + key + "'").toList());
	}

	private static String example(String[] segments) {
		if (segments.length == 0) {
			return "such as " + SIMULATION_EXAMPLE + " or {\"enabled\": false}";
		}
		if (segments[0].equals(DegradationEndpoint.MANIFEST)) {
			return "a reload takes an empty body or {}";
		}
		return segments[0].equals(DegradationEndpoint.DEPENDENCIES) ? "such as {\"state\": \"down\"}"
				: "such as {\"state\": \"off\", \"ttl\": \"15m\"}";
	}

	private static String describe(JsonNode value) {
		if (value.isString()) {
			return "the string " + value;
		}
		if (value.isBoolean()) {
			return "the boolean " + value;
		}
		if (value.isNumber()) {
			return "the number " + value;
		}
		if (value.isArray()) {
			return "an array";
		}
		return value.isObject() ? "an object" : "null";
	}

	private static boolean isJson(String contentType) {
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			// The types the Actuator consumes: any other (application/problem+json among them) it
			// would refuse with a 415 of its own, shaped differently on each stack.
			return CONSUMED.stream().anyMatch((consumed) -> consumed.includes(type));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * A write refused before the Actuator reads it, answered the same on both stacks.
	 * @param status the status
	 * @param error the status's reason phrase
	 * @param message what was wrong and what is accepted
	 */
	public record Refusal(int status, String error, String message) {

		/**
		 * Whether the refusal is that the endpoint is read-only, which answers with
		 * {@code Allow: GET}.
		 * @return whether the endpoint is read-only
		 */
		public boolean readOnly() {
			return this.status == 405;
		}

		/**
		 * The answer's JSON body, as the Actuator's own error bodies: status, error and message.
		 * @return the body's bytes (UTF-8)
		 */
		public byte[] body() {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("status", this.status);
			body.put("error", this.error);
			body.put("message", this.message);
			return JSON.writeValueAsBytes(body);
		}

	}

	/**
	 * A key of a write: its JSON type and values.
	 */
	private enum Key {

		BOOLEAN_REQUIRED(true), LEVEL(false), DURATION(false), SWITCH_STATE(false), DEPENDENCY_STATE(false);

		private final boolean required;

		Key(boolean required) {
			this.required = required;
		}

		boolean required() {
			return this.required;
		}

		@Nullable String check(String name, JsonNode value) {
			String accepted = switch (this) {
				case BOOLEAN_REQUIRED -> value.isBoolean() ? null : "true or false";
				case LEVEL -> (value.isIntegralNumber() && value.canConvertToInt() && value.asInt() >= 0) ? null
						: "a whole number from 0, such as 2";
				case DURATION -> value.isString() ? null : "a duration as a string, such as \"15m\"";
				// The value of a well-typed state is checked by the endpoint, which says which it takes.
				case SWITCH_STATE -> value.isString() ? null : "'off' or 'on' (a string)";
				case DEPENDENCY_STATE -> value.isString() ? null : "'down' or 'up' (a string)";
			};
			return (accepted != null) ? "'" + name + "' must be " + accepted + ", but was " + describe(value) : null;
		}

	}

}
