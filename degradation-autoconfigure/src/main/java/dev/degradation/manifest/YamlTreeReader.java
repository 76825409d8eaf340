package dev.degradation.manifest;

import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.util.BufferRecycler;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLFactoryBuilder;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads YAML bytes into a positioned {@link YamlNode} tree under hard limits, so that a hostile
 * or broken file is rejected quickly with a position instead of exhausting memory or time.
 * Explicit tags are refused: a manifest needs none, and refusing them removes type-instantiation
 * tricks outright. Anchors and aliases are ordinary YAML (a {@code static_response} written once
 * and shared): the value of an alias is the anchored node itself, shared rather than copied, and
 * the aliases a document may use and the size it may reach once they are expanded are bounded,
 * as SnakeYAML bounds them, so that an alias bomb is refused at the alias that crosses a bound.
 * Merge keys ({@code <<}) are not YAML 1.2 and are refused. The parser only streams tokens; it
 * never builds objects from tags.
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

	/** The key of YAML 1.1's merges, which YAML 1.2 does not have. */
	private static final String MERGE_KEY = "<<";

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
		return new AnchoringYamlFactory(YAMLFactory.builder()
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
				.build()));
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
		try (AnchoringYamlParser parser = (AnchoringYamlParser) factory(text.length())
			.createParser(ObjectReadContext.empty(), new StringReader(text))) {
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
					String.format(Locale.ROOT,
							"the manifest is not valid YAML: the character U+%04X is not allowed in YAML; remove it",
							reader.getCodePoint()));
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
			problems.add(positionAfter(output.flip()), "", String.format(Locale.ROOT,
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
	 * The reading of one document: the token stream, where its problems go, whether the tree
	 * lacks something the author wrote, and the anchors defined so far with what their aliases
	 * cost.
	 */
	private final class Document {

		private final AnchoringYamlParser parser;

		private final Problems problems;

		/** The values anchored so far, by anchor; a later anchor of the same name replaces one. */
		private final Map<String, Anchored> anchors = new HashMap<>();

		/**
		 * Whether a value was left out of the tree (an alias without its anchor, a merge key, a
		 * number past the limit), so that validating the tree would report keys as missing that the
		 * author did write.
		 */
		private boolean incomplete;

		private int aliases;

		/** How many values the tree holds so far, aliases expanded. */
		private long values;

		/** The deepest level at which a mapping or list started so far, aliases expanded. */
		private int deepest;

		Document(AnchoringYamlParser parser, Problems problems) {
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
			if (this.parser.isCurrentAlias()) {
				return readAlias(path, depth, position);
			}
			String anchor = this.parser.anchor();
			long valuesBefore = this.values;
			int deepestBefore = this.deepest;
			this.deepest = 0;
			YamlNode node = readNode(path, depth, position);
			int deepestInside = this.deepest;
			this.deepest = Math.max(deepestBefore, deepestInside);
			if (anchor != null) {
				int height = (deepestInside > 0) ? deepestInside - depth + 1 : 0;
				this.anchors.put(anchor, new Anchored(node, this.values - valuesBefore, height));
			}
			return node;
		}

		private YamlNode readNode(String path, int depth, Position position) {
			count(path, position);
			JsonToken token = this.parser.currentToken();
			if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
				checkDepth(path, depth, position);
			}
			if (token == JsonToken.START_OBJECT) {
				return readMapping(path, depth, position);
			}
			if (token == JsonToken.START_ARRAY) {
				return readSequence(path, depth, position);
			}
			return readScalar(token, position, path);
		}

		/**
		 * Read an alias as the node its anchor names, after checking what it adds against the
		 * limits: one alias more, the values of the anchored node, and its depth where the alias
		 * stands.
		 */
		private YamlNode readAlias(String path, int depth, Position position) {
			String name = this.parser.getString();
			Anchored anchored = this.anchors.get(name);
			if (anchored == null) {
				this.problems.add(position, path, "the YAML alias " + ProblemText.quote("*" + name)
						+ " names no anchor defined before it; write " + ProblemText.quote("&" + name)
						+ " on a value above, outside the value that holds the alias");
				this.incomplete = true;
				return new YamlNode.Scalar(position, YamlNode.Kind.NULL, "");
			}
			if (++this.aliases > YamlTreeReader.this.limits.maxAliases()) {
				this.problems.add(position, path, "the manifest uses more YAML aliases than the limit of "
						+ YamlTreeReader.this.limits.maxAliases());
				throw new Abandoned();
			}
			this.values += anchored.values() - 1;
			count(path, position);
			if (anchored.height() > 0) {
				checkDepth(path, depth + anchored.height() - 1, position);
			}
			return anchored.node().at(position);
		}

		private void count(String path, Position position) {
			if (++this.values > YamlTreeReader.this.limits.maxValues()) {
				this.problems.add(position, path, "the manifest holds more values than the limit of "
						+ YamlTreeReader.this.limits.maxValues() + " here, its YAML aliases expanded; "
						+ "a manifest describes routes, it should hold a few thousand");
				throw new Abandoned();
			}
		}

		/**
		 * Check the level of a mapping or list, or of the deepest one an alias brings in.
		 */
		private void checkDepth(String path, int depth, Position position) {
			if (depth > YamlTreeReader.this.limits.maxDepth()) {
				this.problems.add(position, path, "the manifest nests mappings and lists deeper than the limit of "
						+ YamlTreeReader.this.limits.maxDepth() + " levels here");
				throw new Abandoned();
			}
			this.deepest = Math.max(this.deepest, depth);
		}

		private YamlNode readMapping(String path, int depth, Position position) {
			Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
			JsonToken token;
			while ((token = this.parser.nextToken()) == JsonToken.PROPERTY_NAME) {
				String key = this.parser.currentName();
				Position keyPosition = position(this.parser.currentTokenLocation());
				String childPath = path.isEmpty() ? key : path + "." + key;
				// Only a plain '<<' is a merge key; in quotes it is text like any other.
				boolean merge = key.equals(MERGE_KEY) && this.parser.isPlain();
				this.parser.nextToken();
				YamlNode value = readValue(childPath, depth + 1);
				if (merge) {
					this.problems.add(keyPosition, childPath, "YAML merge keys ('<<') are not part of YAML 1.2, "
							+ "which a manifest is written in; alias the whole mapping, or write its keys out");
					this.incomplete = true;
				}
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
	 * A value with an anchor, with what an alias to it adds to the document.
	 *
	 * @param node the value
	 * @param values how many values it holds, itself included, aliases expanded
	 * @param height how many levels of mappings and lists it nests, 0 for a scalar
	 */
	private record Anchored(YamlNode node, long values, int height) {

	}

	/**
	 * Creates {@link AnchoringYamlParser}s, with the settings of the factory it is built from.
	 */
	private static final class AnchoringYamlFactory extends YAMLFactory {

		private static final long serialVersionUID = 1L;

		AnchoringYamlFactory(YAMLFactoryBuilder builder) {
			super(builder);
		}

		@Override
		protected YAMLParser _createParser(ObjectReadContext readContext, IOContext ioContext, Reader reader) {
			return new AnchoringYamlParser(readContext, ioContext, _getBufferRecycler(),
					readContext.getStreamReadFeatures(this._streamReadFeatures),
					readContext.getFormatReadFeatures(this._formatReadFeatures), this._loadSettings, reader);
		}

	}

	/**
	 * A YAML parser that also tells the anchor of a scalar value, which Jackson's (3.1) tells only
	 * for mappings and lists, and whether a scalar is plain.
	 */
	private static final class AnchoringYamlParser extends YAMLParser {

		AnchoringYamlParser(ObjectReadContext readContext, IOContext ioContext, BufferRecycler buffers,
				int streamReadFeatures, int formatReadFeatures, LoadSettings loadSettings, Reader reader) {
			super(readContext, ioContext, buffers, streamReadFeatures, formatReadFeatures, loadSettings, reader);
		}

		/**
		 * Return the anchor of the current value.
		 * @return the anchor's name, or {@code null} when it has none or is an alias
		 */
		@Nullable String anchor() {
			if (isCurrentAlias() || !(this._lastEvent instanceof NodeEvent node)) {
				return null;
			}
			return node.getAnchor().map(Anchor::getValue).orElse(null);
		}

		/**
		 * Return whether the current scalar, a key or a value, is written plain, without quotes.
		 */
		boolean isPlain() {
			return this._lastEvent instanceof ScalarEvent scalar && scalar.isPlain();
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
