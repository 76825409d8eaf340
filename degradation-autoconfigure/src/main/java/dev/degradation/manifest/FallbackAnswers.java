package dev.degradation.manifest;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;


/**
 * Builds the fallbacks whose keys need more than one value read: the static answer (body,
 * {@code status}, {@code content_type}, {@code headers}), the {@code unavailable} answer and the
 * {@code stale} one, which falls back to one of the other two. Every problem names the key it is
 * about, where it is written.
 */
final class FallbackAnswers {

	/**
	 * Headers a fallback may not set: hop-by-hop headers (they belong to one connection), what the
	 * writer sets itself, and {@code Set-Cookie}, since a fallback answers every user alike.
	 */
	private static final Set<String> RESERVED_HEADERS = Set.of("connection", "keep-alive", "proxy-authenticate",
			"proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
			"content-length", "content-type", "cache-control", "age", "set-cookie");

	private static final JsonFactory JSON = new JsonFactory();

	private static final String MARKER_PREFIX = "x-degrad";

	/** A header name: an HTTP token (RFC 9110, 5.1). */
	private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

	/** A header value: visible ASCII, spaces and tabs, no line breaks. */
	private static final Pattern FIELD_VALUE = Pattern.compile("[\\x20-\\x7E\\t]*");

	private FallbackAnswers() {
	}

	static Fallback.@Nullable Unavailable unavailable(FallbackKeys keys) {
		Integer retryAfter = retryAfter(keys);
		return (retryAfter != null) ? new Fallback.Unavailable(retryAfter) : null;
	}

	static Fallback.@Nullable Stale stale(FallbackKeys keys) {
		Setting<Long> maxStale = keys.values()
			.wholeNumber(keys.route(), keys.path(), ManifestKeys.MAX_STALE_SECONDS, 1, Fallback.Stale.MAX_STALE_SECONDS);
		List<String> varyBy = varyBy(keys);
		Fallback otherwise;
		if (keys.entry(BuiltInFallbackKind.STATIC_RESPONSE) != null) {
			YamlNode.Entry retryAfter = keys.entry(BuiltInFallbackKind.RETRY_AFTER_SECONDS);
			if (retryAfter != null) {
				keys.values()
					.problems()
					.add(retryAfter.keyPosition(), keys.path() + "." + retryAfter.key(),
							"'retry_after_seconds' is sent with the 503 of a 'stale' route without "
									+ "'static_response'; this route answers its 'static_response' instead, so remove one");
				return null;
			}
			otherwise = staticAnswer(keys);
		}
		else {
			for (FallbackKey key : List.of(BuiltInFallbackKind.STATUS, BuiltInFallbackKind.CONTENT_TYPE,
					BuiltInFallbackKind.HEADERS)) {
				YamlNode.Entry entry = keys.entry(key);
				if (entry != null) {
					keys.values()
						.problems()
						.add(entry.keyPosition(), keys.path() + "." + key.name(), "'" + key.name()
								+ "' describes the 'static_response' of a 'stale' route, which has none; add one or remove '"
								+ key.name() + "'");
					return null;
				}
			}
			otherwise = unavailable(keys);
		}
		if (maxStale.value() == null || varyBy == null || otherwise == null) {
			return null;
		}
		return new Fallback.Stale(maxStale.value().intValue(), varyBy, otherwise);
	}

	static Fallback.@Nullable Static staticAnswer(FallbackKeys keys) {
		ValueReader values = keys.values();
		Setting<Long> status = values.wholeNumber(keys.route(), keys.path(), ManifestKeys.STATUS, 200, 599);
		String contentType = contentType(keys);
		Map<String, String> headers = headers(keys);
		if ((status.written() && status.value() == null) || contentType == null || headers == null) {
			return null;
		}
		int code = (status.value() != null) ? status.value().intValue() : 200;
		if (!checkStatus(keys, status, code, headers)) {
			return null;
		}
		String body = body(keys, contentType);
		return (body != null) ? new Fallback.Static(body, code, contentType, headers) : null;
	}

	/**
	 * A static answer may send any 2xx, 4xx or 5xx status that has a body. A 503 must say when to
	 * come back (a {@code Retry-After} in {@code headers}), as {@code unavailable} does: a 503 without
	 * it invites every client to retry at once.
	 */
	private static boolean checkStatus(FallbackKeys keys, Setting<Long> status, int code, Map<String, String> headers) {
		String problem = null;
		if (code >= 300 && code < 400) {
			problem = "a static answer cannot redirect; use a 2xx, 4xx or 5xx status";
		}
		else if (code == 204 || code == 205) {
			problem = code + " has no body; use 'fallback: drop' for an empty answer";
		}
		else if (code == 503 && headers.keySet().stream().noneMatch((name) -> name.equalsIgnoreCase("Retry-After"))) {
			problem = "a static 503 must say when to come back: add 'Retry-After' to 'headers', "
					+ "or use 'fallback: unavailable', which sends a bounded Retry-After";
		}
		if (problem != null && status.entry() != null) {
			keys.values().problems().add(status.entry().value().position(), status.path(), problem);
			return false;
		}
		return true;
	}

	private static @Nullable String contentType(FallbackKeys keys) {
		Setting<String> text = keys.values().text(keys.route(), keys.path(), ManifestKeys.CONTENT_TYPE);
		if (!text.written()) {
			YamlNode.Entry body = keys.entry(BuiltInFallbackKind.STATIC_RESPONSE);
			return defaultContentType((body != null) ? body.value() : null);
		}
		if (text.value() == null || text.entry() == null) {
			return null;
		}
		Position position = text.entry().value().position();
		MediaType type;
		try {
			type = MediaType.parseMediaType(text.value());
		}
		catch (InvalidMediaTypeException ex) {
			keys.values()
				.problems()
				.add(position, text.path(), ProblemText.quote(text.value())
						+ " is not a media type, such as text/html or application/json");
			return null;
		}
		if (type.isWildcardType() || type.isWildcardSubtype()) {
			keys.values()
				.problems()
				.add(position, text.path(), ProblemText.quote(text.value()) + " is a range; name one media type");
			return null;
		}
		if (type.getCharset() != null && !type.getCharset().equals(StandardCharsets.UTF_8)) {
			keys.values()
				.problems()
				.add(position, text.path(), "bodies are sent in UTF-8; leave out the charset or write charset=UTF-8");
			return null;
		}
		// A text body is sent as UTF-8 bytes, so the consumer must be told.
		if (type.getType().equals("text") && type.getCharset() == null) {
			type = new MediaType(type, StandardCharsets.UTF_8);
		}
		return type.toString();
	}

	/**
	 * Without {@code content_type}, a {@code static_response} that is text starting with markup
	 * ({@code <p>...}, {@code <!DOCTYPE html>...}) is the HTML (or, with an XML declaration, the
	 * XML) it looks like: sent as a quoted JSON string, a browser would show the markup as text.
	 * Anything else is JSON.
	 */
	static String defaultContentType(@Nullable YamlNode staticResponse) {
		if (staticResponse instanceof YamlNode.Scalar scalar && scalar.kind() == YamlNode.Kind.STRING) {
			String text = scalar.text().strip();
			if (text.startsWith("<?xml")) {
				return MediaType.APPLICATION_XML_VALUE;
			}
			if (text.startsWith("<") && text.endsWith(">")) {
				return MediaType.TEXT_HTML_VALUE + ";charset=UTF-8";
			}
		}
		return Fallback.Static.DEFAULT_CONTENT_TYPE;
	}

	private static boolean isJson(String contentType) {
		MediaType type = MediaType.parseMediaType(contentType);
		return MediaType.APPLICATION_JSON.isCompatibleWith(type) || type.getSubtype().endsWith("+json");
	}

	private static @Nullable String body(FallbackKeys keys, String contentType) {
		YamlNode node = keys.node(BuiltInFallbackKind.STATIC_RESPONSE);
		if (isJson(contentType)) {
			return json(node);
		}
		String keyPath = keys.path() + "." + ManifestKeys.STATIC_RESPONSE;
		if (!(node instanceof YamlNode.Scalar scalar) || scalar.kind() != YamlNode.Kind.STRING) {
			keys.values()
				.problems()
				.add(node.position(), keyPath, "a " + contentType + " answer is sent as written, so "
						+ "'static_response' must be text (a YAML block such as |), but it is " + node.describe());
			return null;
		}
		return keys.values().text(node, keyPath);
	}

	private static @Nullable Map<String, String> headers(FallbackKeys keys) {
		YamlNode.Entry entry = keys.entry(BuiltInFallbackKind.HEADERS);
		if (entry == null) {
			return Map.of();
		}
		String keyPath = keys.path() + "." + ManifestKeys.HEADERS;
		if (!(entry.value() instanceof YamlNode.Mapping mapping)) {
			keys.values()
				.problems()
				.add(entry.value().position(), keyPath, "'headers' must be a mapping of header name to value, "
						+ "such as { Retry-After: \"60\" }, but it is " + entry.value().describe());
			return null;
		}
		Map<String, String> headers = new LinkedHashMap<>();
		boolean usable = true;
		for (YamlNode.Entry header : mapping.entries().values()) {
			String headerPath = keyPath + "." + header.key();
			String name = header.key();
			String lower = name.toLowerCase(Locale.ROOT);
			String problem = null;
			if (!TOKEN.matcher(name).matches()) {
				problem = ProblemText.quote(name) + " is not a header name";
			}
			else if (lower.startsWith(MARKER_PREFIX)) {
				problem = "the X-Degrad* headers are the starter's markers of a degraded answer; a fallback cannot set them";
			}
			else if (RESERVED_HEADERS.contains(lower)) {
				problem = ProblemText.quote(name) + " cannot be set by a fallback"
						+ (lower.equals("content-type") ? "; use 'content_type'"
								: lower.equals("set-cookie") ? ": a fallback answers every user alike"
										: lower.equals("cache-control") || lower.equals("age")
												? ": the writer sets it (a degraded answer is never cached)"
												: ": it belongs to one connection, not to an answer");
			}
			if (problem != null) {
				keys.values().problems().add(header.keyPosition(), headerPath, problem);
				usable = false;
				continue;
			}
			String value = keys.values().text(header.value(), headerPath);
			if (value == null) {
				usable = false;
				continue;
			}
			if (!FIELD_VALUE.matcher(value).matches()) {
				keys.values()
					.problems()
					.add(header.value().position(), headerPath, "a header value must be printable ASCII on one line");
				usable = false;
				continue;
			}
			if (lower.equals("retry-after") && !retryAfterIsBounded(value)) {
				keys.values()
					.problems()
					.add(header.value().position(), headerPath, "'Retry-After' must be whole seconds from 1 to "
							+ Fallback.Unavailable.MAX_RETRY_AFTER_SECONDS + ", but it is " + ProblemText.quote(value));
				usable = false;
				continue;
			}
			headers.put(name, value);
		}
		return usable ? headers : null;
	}

	private static boolean retryAfterIsBounded(String value) {
		if (!value.matches("[0-9]{1,5}")) {
			return false;
		}
		int seconds = Integer.parseInt(value);
		return seconds >= 1 && seconds <= Fallback.Unavailable.MAX_RETRY_AFTER_SECONDS;
	}

	private static @Nullable Integer retryAfter(FallbackKeys keys) {
		Setting<Long> seconds = keys.values()
			.wholeNumber(keys.route(), keys.path(), ManifestKeys.RETRY_AFTER_SECONDS, 1,
					Fallback.Unavailable.MAX_RETRY_AFTER_SECONDS);
		if (!seconds.written()) {
			return Fallback.Unavailable.DEFAULT_RETRY_AFTER_SECONDS;
		}
		return (seconds.value() != null) ? seconds.value().intValue() : null;
	}

	private static @Nullable List<String> varyBy(FallbackKeys keys) {
		YamlNode.Entry entry = keys.entry(BuiltInFallbackKind.VARY_BY);
		if (entry == null) {
			return List.of();
		}
		String keyPath = keys.path() + "." + ManifestKeys.VARY_BY;
		if (!(entry.value() instanceof YamlNode.Sequence sequence)) {
			keys.values()
				.problems()
				.add(entry.value().position(), keyPath, "'vary_by' must be a list of request header names, "
						+ "such as [Authorization], but it is " + entry.value().describe());
			return null;
		}
		List<String> names = new ArrayList<>();
		boolean usable = true;
		for (int i = 0; i < sequence.items().size(); i++) {
			YamlNode item = sequence.items().get(i);
			String itemPath = keyPath + "[" + i + "]";
			String name = keys.values().text(item, itemPath);
			if (name == null) {
				usable = false;
			}
			else if (!TOKEN.matcher(name).matches()) {
				keys.values().problems().add(item.position(), itemPath, ProblemText.quote(name) + " is not a header name");
				usable = false;
			}
			else if (names.contains(name.toLowerCase(Locale.ROOT))) {
				keys.values().problems().add(item.position(), itemPath, ProblemText.quote(name) + " is named twice");
				usable = false;
			}
			else {
				names.add(name.toLowerCase(Locale.ROOT));
			}
		}
		return usable ? names : null;
	}

	static String json(YamlNode node) {
		StringWriter writer = new StringWriter();
		try (JsonGenerator generator = JSON.createGenerator(ObjectWriteContext.empty(), writer)) {
			writeJson(node, generator);
		}
		return writer.toString();
	}

	private static void writeJson(YamlNode node, JsonGenerator generator) {
		if (node instanceof YamlNode.Mapping mapping) {
			generator.writeStartObject();
			for (YamlNode.Entry entry : mapping.entries().values()) {
				generator.writeName(entry.key());
				writeJson(entry.value(), generator);
			}
			generator.writeEndObject();
		}
		else if (node instanceof YamlNode.Sequence sequence) {
			generator.writeStartArray();
			for (YamlNode item : sequence.items()) {
				writeJson(item, generator);
			}
			generator.writeEndArray();
		}
		else if (node instanceof YamlNode.Scalar scalar) {
			switch (scalar.kind()) {
				case NULL -> generator.writeNull();
				case BOOLEAN -> generator.writeBoolean(Boolean.parseBoolean(scalar.text()));
				case INTEGER -> generator.writeNumber(new BigInteger(scalar.text()));
				case DECIMAL -> generator.writeNumber(new BigDecimal(scalar.text()));
				case STRING -> generator.writeString(scalar.text());
			}
		}
	}

}
