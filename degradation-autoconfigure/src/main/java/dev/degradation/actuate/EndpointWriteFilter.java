package dev.degradation.actuate;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.util.ClassUtils;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * Checks a write to the {@code degradation} endpoint before the Actuator reads it, so that every
 * refusal says what was wrong: the Actuator reads a write's body as text values (so {@code "yes"}
 * and {@code 1} would pass for {@code true}, {@code "1"} for a number), lets a body key replace a
 * part of the URL, and answers a malformed body, a missing {@code Content-Type} or a read-only
 * endpoint with a bare status.
 *
 * <ul>
 * <li>The URL names the target; a body that names one ({@code name}, {@code section}) is
 * refused.</li>
 * <li>Every key has one JSON type: {@code enabled} a boolean, {@code level} a whole number from 0,
 * {@code state} and {@code ttl} strings; a refusal names the key, the value and what is
 * accepted.</li>
 * <li>A body that is not a JSON object, and values in the query string, are refused; a write
 * without a {@code Content-Type} is read as JSON (so that {@code curl -X POST .../manifest}
 * works).</li>
 * <li>While the endpoint is read-only, a write answers {@code 405} with the property that grants
 * writes.</li>
 * </ul>
 */
public class EndpointWriteFilter extends OncePerRequestFilter {

	/** The property that grants the endpoint's writes. */
	public static final String ACCESS_PROPERTY = "management.endpoint.degradation.access";

	private static final int MAX_BODY_BYTES = 16 * 1024;

	private static final boolean OBSERVED = ClassUtils.isPresent("io.micrometer.observation.Observation",
			EndpointWriteFilter.class.getClassLoader());

	private static final String SIMULATION_EXAMPLE = "{\"enabled\": true, \"level\": 2}";

	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private final String endpointPath;

	private final BooleanSupplier writable;

	/**
	 * Create a filter.
	 * @param endpointPath the endpoint's path within the application, such as
	 * {@code /actuator/degradation}
	 * @param writable whether the endpoint takes writes over the web now
	 */
	public EndpointWriteFilter(String endpointPath, BooleanSupplier writable) {
		this.endpointPath = endpointPath;
		this.writable = writable;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		String method = request.getMethod();
		return (!"POST".equals(method) && !"DELETE".equals(method)) || target(request) == null;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (OBSERVED) {
			Observed.measureAs(request, pattern(target(request)));
		}
		if (!this.writable.getAsBoolean()) {
			response.setHeader(HttpHeaders.ALLOW, "GET");
			refuse(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "Method Not Allowed",
					"The degradation endpoint is read-only: its writes (simulation, forcing a dependency, switches, "
							+ "manifest reload, reset) take '" + ACCESS_PROPERTY + "=unrestricted', and should then "
							+ "be secured");
			return;
		}
		if (!"POST".equals(request.getMethod())) {
			chain.doFilter(request, response);
			return;
		}
		String target = target(request);
		String contentType = request.getContentType();
		if (contentType != null && !isJson(contentType)) {
			refuse(response, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type",
					"Writes take a JSON body (Content-Type: application/json), not " + contentType);
			return;
		}
		byte[] body = request.getInputStream().readNBytes(MAX_BODY_BYTES + 1);
		String problem = (body.length > MAX_BODY_BYTES) ? "The body is larger than " + MAX_BODY_BYTES + " bytes"
				: problem(request, target, body);
		if (problem != null) {
			refuse(response, HttpServletResponse.SC_BAD_REQUEST, "Bad Request", problem);
			return;
		}
		chain.doFilter(new CheckedWrite(request, body), response);
	}

	/**
	 * The part of the path after the endpoint's: {@code ""}, {@code manifest},
	 * {@code switches/directory}; {@code null} outside the endpoint.
	 */
	private @Nullable String target(HttpServletRequest request) {
		String path = request.getRequestURI().substring(request.getContextPath().length());
		if (path.equals(this.endpointPath) || path.equals(this.endpointPath + "/")) {
			return "";
		}
		return path.startsWith(this.endpointPath + "/") ? path.substring(this.endpointPath.length() + 1) : null;
	}

	/**
	 * The pattern the Actuator maps the request to, so that a refused write is measured as the
	 * write it is, not as an unknown URI.
	 */
	private String pattern(@Nullable String target) {
		int segments = (target == null || target.isEmpty()) ? 0 : target.split("/", -1).length;
		return switch (segments) {
			case 0 -> this.endpointPath;
			case 1 -> this.endpointPath + "/{section}";
			default -> this.endpointPath + "/{section}/{name}";
		};
	}

	private @Nullable String problem(HttpServletRequest request, String target, byte[] body) {
		String[] segments = target.isEmpty() ? new String[0] : target.split("/", -1);
		Map<String, Key> keys = keys(segments);
		if (keys == null) {
			// Not a write this endpoint takes: the Actuator answers 404 with the paths it knows.
			return null;
		}
		if (request.getQueryString() != null) {
			return "A write takes its values in a JSON body, not in the query ('" + request.getQueryString() + "')";
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

	static String describe(JsonNode value) {
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
			return type.getSubtype().equals("json") || type.getSubtype().endsWith("+json");
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static void refuse(HttpServletResponse response, int status, String error, String message)
			throws IOException {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("status", status);
		body.put("error", error);
		body.put("message", message);
		response.setStatus(status);
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8.name());
		response.getOutputStream().write(JSON.writeValueAsBytes(body));
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

	/**
	 * The HTTP server observation of the request, where Micrometer is present.
	 */
	private static final class Observed {

		static void measureAs(HttpServletRequest request, String pattern) {
			ServerHttpObservationFilter.findObservationContext(request)
				.ifPresent((context) -> setPattern(context, pattern));
		}

		private static void setPattern(ServerRequestObservationContext context, String pattern) {
			if (context.getPathPattern() == null) {
				context.setPathPattern(pattern);
			}
		}

	}

	/**
	 * The request as checked: its body read once and replayed, read as JSON when it had no
	 * {@code Content-Type}.
	 */
	private static final class CheckedWrite extends HttpServletRequestWrapper {

		private final byte[] body;

		private final boolean typed;

		CheckedWrite(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = body;
			this.typed = request.getContentType() != null;
		}

		@Override
		public String getContentType() {
			return this.typed ? super.getContentType() : MediaType.APPLICATION_JSON_VALUE;
		}

		@Override
		public @Nullable String getHeader(String name) {
			return (!this.typed && HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) ? MediaType.APPLICATION_JSON_VALUE
					: super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			return (!this.typed && HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name))
					? Collections.enumeration(List.of(MediaType.APPLICATION_JSON_VALUE)) : super.getHeaders(name);
		}

		@Override
		public Enumeration<String> getHeaderNames() {
			List<String> names = Collections.list(super.getHeaderNames());
			if (!this.typed) {
				names.add(HttpHeaders.CONTENT_TYPE);
			}
			return Collections.enumeration(names);
		}

		@Override
		public int getContentLength() {
			return this.body.length;
		}

		@Override
		public long getContentLengthLong() {
			return this.body.length;
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream input = new ByteArrayInputStream(this.body);
			return new ServletInputStream() {

				@Override
				public int read() {
					return input.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					return input.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return input.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new UnsupportedOperationException("A checked write is read synchronously");
				}

			};
		}

	}

}
