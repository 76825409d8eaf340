package dev.degradation.manifest;

import java.util.List;
import java.util.Map;

/**
 * A node of a parsed YAML document that remembers where it stood, so that validation can point
 * at it. Jackson's own tree forgets positions; this one is built from its token stream. The value
 * of an alias is the anchored node itself, shared, at the alias's position: what it holds keeps
 * the positions where it is written.
 */
sealed interface YamlNode permits YamlNode.Mapping, YamlNode.Sequence, YamlNode.Scalar {

	Position position();

	/**
	 * Return this node as it stands somewhere else: the same content at another position, for
	 * the value of a YAML alias, which stands where the alias is written.
	 * @param position the position of the alias
	 * @return the node at that position
	 */
	YamlNode at(Position position);

	/**
	 * A short word for the kind of node, for messages such as "expected a mapping, found a list".
	 * @return the description
	 */
	String describe();

	/**
	 * A mapping with string keys, in document order.
	 */
	record Mapping(Position position, Map<String, Entry> entries) implements YamlNode {

		@Override
		public Mapping at(Position position) {
			return new Mapping(position, this.entries);
		}

		@Override
		public String describe() {
			return "a mapping";
		}

	}

	/**
	 * One key of a mapping with its value.
	 */
	record Entry(String key, Position keyPosition, YamlNode value) {

	}

	/**
	 * A sequence.
	 */
	record Sequence(Position position, List<YamlNode> items) implements YamlNode {

		@Override
		public Sequence at(Position position) {
			return new Sequence(position, this.items);
		}

		@Override
		public String describe() {
			return "a list";
		}

	}

	/**
	 * A scalar with the type YAML's core schema gives it.
	 */
	record Scalar(Position position, Kind kind, String text) implements YamlNode {

		@Override
		public Scalar at(Position position) {
			return new Scalar(position, this.kind, this.text);
		}

		boolean isNull() {
			return this.kind == Kind.NULL || (this.kind == Kind.STRING && (this.text.isEmpty() || "~".equals(this.text)));
		}

		@Override
		public String describe() {
			return switch (this.kind) {
				case NULL -> "nothing";
				case BOOLEAN -> "the boolean " + this.text;
				case INTEGER, DECIMAL -> "the number " + this.text;
				case STRING -> isNull() ? "nothing" : "the text " + ProblemText.quote(this.text);
			};
		}

	}

	/**
	 * The type of a scalar.
	 */
	enum Kind {

		NULL, BOOLEAN, INTEGER, DECIMAL, STRING

	}

}
