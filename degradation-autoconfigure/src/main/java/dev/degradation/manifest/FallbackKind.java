package dev.degradation.manifest;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The fallbacks a route may name in {@code fallback}, as one table: each kind's name, what it
 * answers, the keys of the route it needs or allows, and how it is built from them. The route
 * reader knows no kind by name; adding a kind is adding an entry (and its {@link Fallback}).
 */
enum FallbackKind {

	/** {@code drop}: 204, nothing done. */
	DROP(Fallback.Drop.KIND, "204, nothing done", "answers 204 with no body", Map.of(),
			(keys) -> new Fallback.Drop()),

	/** {@code static}: a fixed body, 200 and JSON unless {@code status} and {@code content_type} say otherwise. */
	STATIC(Fallback.Static.KIND, "'static_response' as the body, 200 unless 'status' says otherwise",
			"answers with its body",
			needs(FallbackKey.STATIC_RESPONSE, FallbackKey.STATUS, FallbackKey.CONTENT_TYPE, FallbackKey.HEADERS),
			FallbackAnswers::staticAnswer),

	/** {@code unavailable}: 503 with a bounded {@code Retry-After}. */
	UNAVAILABLE(Fallback.Unavailable.KIND, "503 with a bounded Retry-After",
			"answers 503 with no body", needs(null, FallbackKey.RETRY_AFTER_SECONDS),
			FallbackAnswers::unavailable),

	/** {@code stale}: the last good answer, at most {@code max_stale_seconds} old; then static or 503. */
	STALE(Fallback.Stale.KIND,
			"the last good answer, at most 'max_stale_seconds' old",
			"answers with a stored copy",
			needs(FallbackKey.MAX_STALE_SECONDS, FallbackKey.VARY_BY, FallbackKey.STATIC_RESPONSE, FallbackKey.STATUS,
					FallbackKey.CONTENT_TYPE, FallbackKey.HEADERS, FallbackKey.RETRY_AFTER_SECONDS),
			FallbackAnswers::stale);

	private static final JsonFactory JSON = new JsonFactory();

	private final String kind;

	private final String summary;

	private final String answer;

	private final Map<FallbackKey, Need> keys;

	private final Construction construction;

	/**
	 * @param kind the name in the manifest
	 * @param summary what it answers, in a few words, for the list of kinds
	 * @param answer what it answers, as a verb, for the problem of a key it has no use for
	 * @param keys the keys of the route it needs or allows besides the route's own
	 * @param construction how the fallback is built from those keys
	 */
	FallbackKind(String kind, String summary, String answer, Map<FallbackKey, Need> keys, Construction construction) {
		this.kind = kind;
		this.summary = summary;
		this.answer = answer;
		this.keys = keys;
		this.construction = construction;
	}

	String kind() {
		return this.kind;
	}

	String answer() {
		return this.answer;
	}

	Need need(FallbackKey key) {
		return this.keys.getOrDefault(key, Need.UNUSED);
	}

	@Nullable Fallback construct(Keys keys) {
		return this.construction.construct(keys);
	}

	/**
	 * Return the kind with the given name.
	 * @return the kind, or {@code null} when there is none of that name
	 */
	static @Nullable FallbackKind of(String kind) {
		return Arrays.stream(values()).filter((candidate) -> candidate.kind.equals(kind)).findFirst().orElse(null);
	}

	/** Return the names of every kind. */
	static Set<String> kinds() {
		return Arrays.stream(values()).map(FallbackKind::kind).collect(Collectors.toCollection(LinkedHashSet::new));
	}

	/** Return the keys of a route that some kind uses. */
	static Set<FallbackKey> fallbackKeys() {
		return Arrays.stream(values())
			.flatMap((kind) -> kind.keys.keySet().stream())
			.collect(Collectors.toCollection(LinkedHashSet::new));
	}

	/** Return the first kind that uses a key, to suggest it where the key is of no use. */
	static @Nullable FallbackKind usingKey(FallbackKey key) {
		return Arrays.stream(values()).filter((kind) -> kind.need(key) != Need.UNUSED).findFirst().orElse(null);
	}

	/**
	 * Return every kind with what it answers, for the problem of a route without a fallback:
	 * {@code 'drop' (204, nothing done) or 'static' (...)}.
	 */
	static String described() {
		List<String> kinds = Arrays.stream(values()).map((kind) -> "'" + kind.kind + "' (" + kind.summary + ")").toList();
		return (kinds.size() == 1) ? kinds.get(0)
				: String.join(", ", kinds.subList(0, kinds.size() - 1)) + " or " + kinds.get(kinds.size() - 1);
	}

	/**
	 * The keys of a kind in a fixed order, so that the problems of a route come in the order of
	 * the table on every run.
	 */
	private static Map<FallbackKey, Need> needs(@Nullable FallbackKey required, FallbackKey... allowed) {
		Map<FallbackKey, Need> keys = new LinkedHashMap<>();
		if (required != null) {
			keys.put(required, Need.REQUIRED);
		}
		for (FallbackKey key : allowed) {
			keys.put(key, Need.ALLOWED);
		}
		return keys;
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

	/**
	 * Whether a kind needs a key of the route.
	 */
	enum Need {

		/** The key must be written, with a value. */
		REQUIRED,

		/** The key may be written. */
		ALLOWED,

		/** The key would be of no use: writing it is a mistake. */
		UNUSED

	}

	/**
	 * A key of a route that belongs to its fallback, with what its problems say of it.
	 *
	 * @param name the key
	 * @param meaning what it holds, for the problem that it is missing
	 * @param use what is done with it, for the problem that a kind would never do it
	 */
	record FallbackKey(String name, String meaning, String use) {

		/** The body of a {@code static} fallback. */
		static final FallbackKey STATIC_RESPONSE = new FallbackKey(ManifestKeys.STATIC_RESPONSE,
				"the JSON body to answer with, such as { \"items\": [], \"source\": \"degraded\" }", "sent");

		/** The status of a static answer. */
		static final FallbackKey STATUS = new FallbackKey(ManifestKeys.STATUS, "the status code to answer with",
				"sent");

		/** The content type of a static answer. */
		static final FallbackKey CONTENT_TYPE = new FallbackKey(ManifestKeys.CONTENT_TYPE,
				"the media type of 'static_response', such as text/html", "sent");

		/** Further headers of a static answer. */
		static final FallbackKey HEADERS = new FallbackKey(ManifestKeys.HEADERS,
				"a mapping of header name to value", "sent");

		/** The Retry-After of a 503. */
		static final FallbackKey RETRY_AFTER_SECONDS = new FallbackKey(ManifestKeys.RETRY_AFTER_SECONDS,
				"the Retry-After of the 503, in seconds", "sent");

		/** How old a stale copy may be. */
		static final FallbackKey MAX_STALE_SECONDS = new FallbackKey(ManifestKeys.MAX_STALE_SECONDS,
				"how old, in seconds, a stored answer may be when it is served, such as 60", "used");

		/** The request headers a stale copy varies by. */
		static final FallbackKey VARY_BY = new FallbackKey(ManifestKeys.VARY_BY,
				"the request headers a stored answer varies by", "used");

	}

	/**
	 * The keys of one route that its fallback needs, present and checked.
	 *
	 * @param route the route's mapping
	 * @param path the YAML path of the route
	 * @param values the reader of typed values, for kinds whose keys are numbers or text
	 */
	record Keys(YamlNode.Mapping route, String path, ValueReader values) {

		YamlNode node(FallbackKey key) {
			YamlNode.Entry entry = this.route.entries().get(key.name());
			if (entry == null) {
				throw new IllegalStateException("No '" + key.name() + "' in " + this.path);
			}
			return entry.value();
		}

		YamlNode.@Nullable Entry entry(FallbackKey key) {
			return this.route.entries().get(key.name());
		}

	}

	/**
	 * How a kind builds its fallback from the keys it needs, all present and not empty.
	 */
	@FunctionalInterface
	interface Construction {

		/**
		 * @return the fallback, or {@code null} when a value is not usable (reported)
		 */
		@Nullable Fallback construct(Keys keys);

	}

}
