package dev.degradation.manifest;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads YAML bytes into a positioned {@link YamlNode} tree under hard limits, so that a hostile
 * or broken file is rejected quickly with a position instead of exhausting memory or time.
 * Aliases and explicit tags are refused: a manifest needs neither, and refusing them removes alias
 * bombs and type-instantiation tricks outright. The parser only streams tokens; it never builds
 * objects from tags nor expands aliases.
 */
final class YamlTreeReader {

	/**
	 * The longest number, in characters. Far above any value a manifest needs, and low enough that
	 * reading one as a {@code BigDecimal}, which takes time that grows with the square of its
	 * length, costs nothing.
	 */
	static final int MAX_NUMBER_LENGTH = 100;

	/** What snakeyaml-engine reads at a time unless told otherwise. */
	private static final int DEFAULT_BUFFER_SIZE = 1024;

	private final ManifestLimits limits;

	YamlTreeReader(ManifestLimits limits) {
		this.limits = limits;
	}

	/**
	 * Return a factory for a document of the given length. The parser reads the whole document in
	 * one go: snakeyaml-engine (3.0.1) fails with an IndexOutOfBoundsException when a read ends
	 * between the two halves of a character outside the Basic Multilingual Plane, such as an emoji
	 * at character 1024, and a read of the whole document ends at its end, where no character is
	 * cut in two. The document is at most {@link ManifestLimits#maxBytes()} long, so the buffer is
	 * bounded too.
	 */
	private YAMLFactory factory(int length) {
		LoadSettings loadSettings = LoadSettings.builder()
			.setCodePointLimit(this.limits.maxBytes())
			.setUseMarks(true)
			.setBufferSize(Math.max(DEFAULT_BUFFER_SIZE, length + 1))
			.build();
		return YAMLFactory.builder()
			.loadSettings(loadSettings)
			// Jackson would stop at the first duplicate key without naming the first one;
			// readMapping reports every duplicate with both lines and carries on.
			.disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
			.streamReadConstraints(StreamReadConstraints.builder()
				// One level more than the limit, so that readValue sees the first container past the
				// limit and reports where it is; Jackson's own check stays as a backstop.
				.maxNestingDepth(this.limits.maxDepth() + 1)
				.maxDocumentLength(this.limits.maxBytes())
				.maxStringLength(this.limits.maxBytes())
				.maxNumberLength(MAX_NUMBER_LENGTH)
				.build())
			.build();
	}

	/**
	 * Parse a whole document.
	 * @param content the raw bytes, expected to be UTF-8
	 * @param problems where problems are added
	 * @return the root node, or {@code null} when the document could not be parsed into a tree
	 * that is worth validating
	 */
	@Nullable YamlNode read(byte[] content, Problems problems) {
		if (content.length > this.limits.maxBytes()) {
			problems.add(Position.START, "", "the manifest is larger than the limit of " + this.limits.maxBytes()
					+ " bytes; a manifest describes routes, it should be a few kilobytes");
			return null;
		}
		String text = decode(content, problems);
		if (text == null) {
			return null;
		}
		if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
			text = text.substring(1);
		}
		try (JsonParser parser = factory(text.length()).createParser(ObjectReadContext.empty(), text)) {
			return new Document(parser, problems).read();
		}
		catch (Abandoned ex) {
			return null;
		}
		catch (JacksonException ex) {
			addSyntaxProblem(ex, text, problems);
			return null;
		}
	}

	/**
	 * Point at what the YAML parser itself says is wrong: its problem mark, or, when the file ended
	 * before something was closed, where that something was opened.
	 */
	private static void addSyntaxProblem(JacksonException ex, String text, Problems problems) {
		if (ex.getCause() instanceof ReaderException reader) {
			// A character YAML refuses anywhere (a NUL, most controls): the parser gives no line and
			// column for it, only how many characters precede it.
			int before = Math.min(Math.max(0, reader.getPosition()), text.codePointCount(0, text.length()));
			problems.add(positionAfter(text.subSequence(0, text.offsetByCodePoints(0, before))), "",
					String.format("the manifest is not valid YAML: the character U+%04X is not allowed in YAML; "
							+ "remove it", reader.getCodePoint()));
			return;
		}
		if (ex.getCause() instanceof MarkedYamlEngineException yaml && yaml.getProblemMark().isPresent()) {
			Mark problemMark = yaml.getProblemMark().get();
			Optional<Mark> contextMark = yaml.getContextMark();
			boolean atEnd = problemMark.getIndex() >= text.codePointCount(0, text.length());
			Mark mark = (atEnd && contextMark.isPresent()) ? contextMark.get() : problemMark;
			String context = (yaml.getContext() != null && contextMark.isPresent())
					? " (" + yaml.getContext() + " started at line " + position(contextMark.get()).line() + ", column "
							+ position(contextMark.get()).column() + ")"
					: "";
			problems.add(position(mark), "", "the manifest is not valid YAML: " + yaml.getProblem() + context
					+ syntaxHint(yaml.getContext(), atEnd));
			return;
		}
		TokenStreamLocation location = ex.getLocation();
		problems.add(position(location), "", "the manifest is not valid YAML: " + ex.getOriginalMessage());
	}

	/**
	 * Say what the parser's words mean for the two mistakes it reports most: indentation, which is
	 * the block structure of YAML, and an unquoted '{' or ',' in a flow collection, as in
	 * {@code { path: /api/{id} }}.
	 */
	private static String syntaxHint(@Nullable String context, boolean atEnd) {
		if (context == null) {
			return "";
		}
		if (context.startsWith("while parsing a block")) {
			return "; check the indentation";
		}
		if (context.startsWith("while parsing a flow") && !atEnd) {
			return "; put text that contains '{', '}', '[', ']' or ',' in quotes";
		}
		return "";
	}

	private static @Nullable String decode(byte[] content, Problems problems) {
		CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
			.onMalformedInput(CodingErrorAction.REPORT)
			.onUnmappableCharacter(CodingErrorAction.REPORT);
		ByteBuffer input = ByteBuffer.wrap(content);
		CharBuffer output = CharBuffer.allocate(content.length);
		CoderResult result = decoder.decode(input, output, true);
		if (result.isError()) {
			int offset = input.position();
			problems.add(positionAfter(output.flip()), "", String.format(
					"the manifest is not valid UTF-8: byte 0x%02X at offset %d; save the file as UTF-8",
					content[offset] & 0xFF, offset));
			return null;
		}
		decoder.flush(output);
		return output.flip().toString();
	}

	/**
	 * The position of the character that follows the given text, counted in code points like the
	 * YAML parser counts columns.
	 */
	private static Position positionAfter(CharSequence text) {
		int line = 1;
		int lineStart = 0;
		for (int i = 0; i < text.length(); i++) {
			if (text.charAt(i) == '\n') {
				line++;
				lineStart = i + 1;
			}
		}
		String lastLine = text.subSequence(lineStart, text.length()).toString();
		return new Position(line, lastLine.codePointCount(0, lastLine.length()) + 1);
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

	private static Position position(Mark mark) {
		return new Position(mark.getLine() + 1, mark.getColumn() + 1);
	}

	/**
	 * The reading of one document: the token stream, where its problems go, and whether the tree
	 * lacks something the author wrote.
	 */
	private final class Document {

		private final JsonParser parser;

		private final Problems problems;

		/**
		 * Whether a value was left out of the tree (an alias, a number past the limit), so that
		 * validating the tree would report keys as missing that the author did write.
		 */
		private boolean incomplete;

		Document(JsonParser parser, Problems problems) {
			this.parser = parser;
			this.problems = problems;
		}

		@Nullable YamlNode read() {
			YamlNode root = (this.parser.nextToken() != null) ? readValue("", 1) : null;
			if (root != null && this.parser.nextToken() != null) {
				this.problems.add(position(this.parser.currentTokenLocation()), "",
						"the manifest holds more than one YAML document; put everything in one document");
			}
			// A file of comments, or only '---', is as empty as a file of nothing.
			if (root == null || (root instanceof YamlNode.Scalar scalar && scalar.isNull())) {
				this.problems.add(Position.START, "", "the manifest is empty; it needs at least a 'tiers' section");
				return null;
			}
			return this.incomplete ? null : root;
		}

		private YamlNode readValue(String path, int depth) {
			Position position = position(this.parser.currentTokenLocation());
			Object tag = this.parser.getTypeId();
			if (tag != null) {
				this.problems.add(position, path, "YAML tags such as " + ProblemText.quote(shortTag(tag.toString()))
						+ " are not allowed in a manifest; write the plain value");
			}
			if (this.parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
				this.problems.add(position, path, "YAML aliases such as "
						+ ProblemText.quote("*" + this.parser.getString())
						+ " are not allowed in a manifest; write the value out where it is needed");
				this.incomplete = true;
				return new YamlNode.Scalar(position, YamlNode.Kind.NULL, "");
			}
			JsonToken token = this.parser.currentToken();
			if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY)
					&& depth > YamlTreeReader.this.limits.maxDepth()) {
				this.problems.add(position, path, "the manifest nests mappings and lists deeper than the limit of "
						+ YamlTreeReader.this.limits.maxDepth() + " levels here");
				throw new Abandoned();
			}
			if (token == JsonToken.START_OBJECT) {
				return readMapping(path, depth, position);
			}
			if (token == JsonToken.START_ARRAY) {
				return readSequence(path, depth, position);
			}
			return readScalar(token, position, path);
		}

		private YamlNode readMapping(String path, int depth, Position position) {
			Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
			JsonToken token;
			while ((token = this.parser.nextToken()) == JsonToken.PROPERTY_NAME) {
				String key = this.parser.currentName();
				Position keyPosition = position(this.parser.currentTokenLocation());
				String childPath = path.isEmpty() ? key : path + "." + key;
				this.parser.nextToken();
				YamlNode value = readValue(childPath, depth + 1);
				YamlNode.Entry previous = entries.putIfAbsent(key, new YamlNode.Entry(key, keyPosition, value));
				if (previous != null) {
					this.problems.add(keyPosition, childPath, "duplicate key " + ProblemText.quote(key)
							+ " (first at line " + previous.keyPosition().line() + "); each key may appear once");
				}
			}
			if (token != JsonToken.END_OBJECT) {
				throw new IllegalStateException("Unexpected token " + token + " in a mapping");
			}
			return new YamlNode.Mapping(position, entries);
		}

		private YamlNode readSequence(String path, int depth, Position position) {
			List<YamlNode> items = new ArrayList<>();
			JsonToken token;
			while ((token = this.parser.nextToken()) != JsonToken.END_ARRAY) {
				if (token == null) {
					throw new IllegalStateException("Unexpected end of a sequence");
				}
				items.add(readValue(path + "[" + items.size() + "]", depth + 1));
			}
			return new YamlNode.Sequence(position, items);
		}

		private YamlNode.Scalar readScalar(JsonToken token, Position position, String path) {
			String text = this.parser.getString();
			if ((token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT)
					&& text.length() > MAX_NUMBER_LENGTH) {
				// The YAML parser leaves this limit to its caller. Nothing else is said about a tree
				// without the number: that it is missing would not be news.
				this.problems.add(position, path, "a number of " + text.length() + " characters is longer than the "
						+ "limit of " + MAX_NUMBER_LENGTH + "; write the value the key needs");
				this.incomplete = true;
				return new YamlNode.Scalar(position, YamlNode.Kind.NULL, "");
			}
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

	}

	/**
	 * Stops reading a document that exceeds a limit; the problem is recorded before it is thrown.
	 */
	private static final class Abandoned extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Abandoned() {
			super(null, null, false, false);
		}

	}

}
