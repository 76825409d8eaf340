package dev.degradation.manifest;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads YAML bytes into a positioned {@link YamlNode} tree under hard limits, so that a hostile
 * or broken file is rejected quickly with a position instead of exhausting memory or time.
 * Aliases and explicit tags are refused: a manifest needs neither, and refusing them removes alias
 * bombs and type-instantiation tricks outright.
 */
final class YamlTreeReader {

	private final ManifestLimits limits;

	private final YAMLFactory factory;

	YamlTreeReader(ManifestLimits limits) {
		this.limits = limits;
		LoadSettings loadSettings = LoadSettings.builder()
			.setCodePointLimit(limits.maxBytes())
			.setMaxAliasesForCollections(0)
			.setAllowDuplicateKeys(false)
			.setAllowRecursiveKeys(false)
			.setUseMarks(true)
			.build();
		this.factory = YAMLFactory.builder()
			.loadSettings(loadSettings)
			.streamReadConstraints(StreamReadConstraints.builder()
				.maxNestingDepth(limits.maxDepth())
				.maxDocumentLength(limits.maxBytes())
				.maxStringLength(limits.maxBytes())
				.maxNumberLength(100)
				.build())
			.build();
	}

	/**
	 * Parse a whole document.
	 * @param content the raw bytes, expected to be UTF-8
	 * @param problems where problems are added
	 * @return the root node, or {@code null} when the document could not be parsed
	 */
	@Nullable YamlNode read(byte[] content, Problems problems) {
		if (content.length > this.limits.maxBytes()) {
			problems.add(Position.START, "", "the manifest is " + content.length + " bytes, more than the limit of "
					+ this.limits.maxBytes() + " bytes");
			return null;
		}
		String text = decode(content, problems);
		if (text == null) {
			return null;
		}
		if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
			text = text.substring(1);
		}
		try (JsonParser parser = this.factory.createParser(ObjectReadContext.empty(), text)) {
			JsonToken first = parser.nextToken();
			if (first == null) {
				problems.add(Position.START, "", "the manifest is empty; it needs at least a 'tiers' section");
				return null;
			}
			YamlNode root = readValue(parser, problems, "", 1);
			if (root != null && parser.nextToken() != null) {
				problems.add(position(parser.currentTokenLocation()), "",
						"the manifest holds more than one YAML document; put everything in one document");
			}
			return root;
		}
		catch (JacksonException ex) {
			TokenStreamLocation location = ex.getLocation();
			problems.add((location != null) ? position(location) : Position.START, "",
					"the manifest is not valid YAML: " + ex.getOriginalMessage());
			return null;
		}
	}

	private @Nullable YamlNode readValue(JsonParser parser, Problems problems, String path, int depth) {
		Position position = position(parser.currentTokenLocation());
		Object tag = parser.getTypeId();
		if (tag != null) {
			problems.add(position, path, "YAML tags such as '" + shortTag(tag.toString())
					+ "' are not allowed in a manifest; write the plain value");
		}
		if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
			problems.add(position, path, "YAML aliases such as '*" + parser.getString()
					+ "' are not allowed in a manifest; write the value out");
			return null;
		}
		JsonToken token = parser.currentToken();
		if (token == JsonToken.START_OBJECT) {
			return readMapping(parser, problems, path, depth, position);
		}
		if (token == JsonToken.START_ARRAY) {
			return readSequence(parser, problems, path, depth, position);
		}
		return readScalar(parser, token, position);
	}

	private YamlNode readMapping(JsonParser parser, Problems problems, String path, int depth, Position position) {
		Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
		JsonToken token;
		while ((token = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
			String key = parser.currentName();
			Position keyPosition = position(parser.currentTokenLocation());
			String childPath = path.isEmpty() ? key : path + "." + key;
			parser.nextToken();
			YamlNode value = readValue(parser, problems, childPath, depth + 1);
			YamlNode.Entry previous = entries.get(key);
			if (previous != null) {
				problems.add(keyPosition, childPath, "duplicate key '" + key + "' (first at line "
						+ previous.keyPosition().line() + "); each key may appear once");
			}
			else if (value != null) {
				entries.put(key, new YamlNode.Entry(key, keyPosition, value));
			}
		}
		if (token != JsonToken.END_OBJECT) {
			throw new IllegalStateException("Unexpected token " + token + " in a mapping");
		}
		return new YamlNode.Mapping(position, entries);
	}

	private YamlNode readSequence(JsonParser parser, Problems problems, String path, int depth, Position position) {
		List<YamlNode> items = new ArrayList<>();
		JsonToken token;
		while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
			if (token == null) {
				throw new IllegalStateException("Unexpected end of a sequence");
			}
			YamlNode item = readValue(parser, problems, path + "[" + items.size() + "]", depth + 1);
			items.add((item != null) ? item : new YamlNode.Scalar(position(parser.currentTokenLocation()),
					YamlNode.Kind.NULL, ""));
		}
		return new YamlNode.Sequence(position, items);
	}

	private YamlNode.Scalar readScalar(JsonParser parser, JsonToken token, Position position) {
		String text = parser.getString();
		return switch (token) {
			case VALUE_NULL -> new YamlNode.Scalar(position, YamlNode.Kind.NULL, "");
			case VALUE_TRUE, VALUE_FALSE -> new YamlNode.Scalar(position, YamlNode.Kind.BOOLEAN, text);
			case VALUE_NUMBER_INT -> new YamlNode.Scalar(position,
					isInteger(text) ? YamlNode.Kind.INTEGER : YamlNode.Kind.STRING, text);
			case VALUE_NUMBER_FLOAT -> new YamlNode.Scalar(position,
					isDecimal(text) ? YamlNode.Kind.DECIMAL : YamlNode.Kind.STRING, text);
			default -> new YamlNode.Scalar(position, YamlNode.Kind.STRING, (text != null) ? text : "");
		};
	}

	private @Nullable String decode(byte[] content, Problems problems) {
		CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
			.onMalformedInput(CodingErrorAction.REPORT)
			.onUnmappableCharacter(CodingErrorAction.REPORT);
		ByteBuffer input = ByteBuffer.wrap(content);
		CharBuffer output = CharBuffer.allocate(content.length);
		var result = decoder.decode(input, output, true);
		if (result.isError()) {
			int offset = input.position();
			problems.add(positionOfByte(content, offset), "", String.format(
					"the manifest is not valid UTF-8: byte 0x%02X at offset %d; save the file as UTF-8",
					content[offset] & 0xFF, offset));
			return null;
		}
		decoder.flush(output);
		return output.flip().toString();
	}

	private static Position positionOfByte(byte[] content, int offset) {
		int line = 1;
		int lineStart = 0;
		for (int i = 0; i < offset; i++) {
			if (content[i] == '\n') {
				line++;
				lineStart = i + 1;
			}
		}
		return new Position(line, offset - lineStart + 1);
	}

	private static boolean isInteger(String text) {
		try {
			new BigInteger(text);
			return true;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	private static boolean isDecimal(String text) {
		try {
			new BigDecimal(text);
			return true;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	private static String shortTag(String tag) {
		return tag.startsWith("tag:yaml.org,2002:") ? "!!" + tag.substring("tag:yaml.org,2002:".length()) : tag;
	}

	static Position position(@Nullable TokenStreamLocation location) {
		if (location == null || location.getLineNr() < 1) {
			return Position.START;
		}
		return new Position(location.getLineNr(), Math.max(1, location.getColumnNr()));
	}

}
