package dev.degradation.manifest;

import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import org.springframework.util.PropertyPlaceholderHelper;

/**
 * Placeholders in manifest values (<code>${name}</code>, <code>${name:default}</code>), read as
 * Spring reads them and resolved within bounds, as the YAML itself is parsed within bounds.
 *
 * <p>Spring resolves a placeholder by recursion, nested ones in its default and in the values it
 * finds: a value nested thousands deep overflows the stack, and values that name each other twice
 * over expand past any heap. So the text of a value is checked before anything is resolved (its
 * nesting and how many placeholders it holds), and the resolution is bounded while it runs: every
 * value looked up is checked the same way, and the lookups of one value and the text they bring are
 * counted. A value past a bound is a problem of the manifest, whatever the leniency towards
 * placeholders without a value.
 */
public final class Placeholders {

	/** The deepest nesting of placeholders in one value, or in one value they look up. */
	public static final int MAX_DEPTH = 8;

	/** The most placeholders in one value, nested ones included. */
	public static final int MAX_PER_VALUE = 64;

	/** The most lookups that resolving one value may take, the values it finds included. */
	public static final int MAX_LOOKUPS = 256;

	/** The most characters that the lookups of one value may bring, and so about its resolved length. */
	public static final int MAX_RESOLVED_LENGTH = 64 * 1024;

	private Placeholders() {
	}

	/**
	 * Return a resolver that resolves placeholders as Spring's Environment does (escaped with
	 * {@code \}, a default after the first {@code :}, nested placeholders resolved), looking up
	 * each name in {@code lookup} and staying within this class's bounds.
	 * @param lookup the value of a name as written (its own placeholders not resolved yet), or
	 * {@code null} when it has none
	 * @return the resolver; it throws {@link IllegalArgumentException} for a placeholder without a
	 * value and for a circular reference, and {@link LimitExceededException} past a bound
	 */
	public static UnaryOperator<String> resolver(Function<String, @Nullable String> lookup) {
		PropertyPlaceholderHelper helper = new PropertyPlaceholderHelper("${", "}", ":", '\\', false);
		return (text) -> {
			Budget budget = new Budget();
			return helper.replacePlaceholders(text, (name) -> budget.spend(name, lookup.apply(name)));
		};
	}

	/**
	 * Check the placeholders of a text as Spring reads them: every unescaped <code>${</code> is
	 * closed and none is empty, and the text stays within the bounds of nesting and count. Spring
	 * would take an unclosed one for plain text, so that a typo turned into a literal '${' in a URL
	 * or a path and failed later with a less helpful message.
	 * @return what is wrong, or {@code null} when the placeholders are well formed
	 */
	static @Nullable String check(String text) {
		Shape shape = Shape.of(text);
		if (shape.emptyName()) {
			return "has a placeholder without a name; write placeholders as ${name} or ${name:default}";
		}
		String bounds = shape.beyondBounds();
		if (bounds != null) {
			return bounds;
		}
		return shape.unclosed() ? "has a '${' without its closing '}'; write placeholders as ${name} or ${name:default}"
				: null;
	}

	/**
	 * How the placeholders of a text are laid out: how deep they nest, how many there are, and
	 * whether one is empty or left open.
	 */
	private record Shape(int deepest, int count, boolean emptyName, boolean unclosed) {

		static Shape of(String text) {
			int depth = 0;
			int deepest = 0;
			int count = 0;
			boolean emptyName = false;
			for (int i = 0; i < text.length(); i++) {
				char c = text.charAt(i);
				if (c == '\\' && text.startsWith("${", i + 1)) {
					i += 2;
				}
				else if (c == '$' && text.startsWith("{", i + 1)) {
					emptyName |= text.startsWith("}", i + 2);
					depth++;
					count++;
					deepest = Math.max(deepest, depth);
					i++;
				}
				else if (c == '}' && depth > 0) {
					depth--;
				}
			}
			return new Shape(deepest, count, emptyName, depth > 0);
		}

		@Nullable String beyondBounds() {
			if (this.deepest > MAX_DEPTH) {
				return "nests placeholders " + this.deepest + " deep; at most " + MAX_DEPTH + " levels are resolved";
			}
			if (this.count > MAX_PER_VALUE) {
				return "holds " + this.count + " placeholders; at most " + MAX_PER_VALUE + " are resolved in one value";
			}
			return null;
		}

	}

	/**
	 * Thrown when resolving a value would pass a bound of this class: the value is refused, not
	 * resolved.
	 */
	public static final class LimitExceededException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		LimitExceededException(String message) {
			super(message, null, false, false);
		}

	}

	/**
	 * What one value's resolution has spent so far.
	 */
	private static final class Budget {

		private int lookups;

		private long length;

		@Nullable String spend(String name, @Nullable String value) {
			if (++this.lookups > MAX_LOOKUPS) {
				throw new LimitExceededException(
						"resolving it takes more than " + MAX_LOOKUPS + " lookups; the values it names expand too far");
			}
			if (value == null) {
				return null;
			}
			this.length += value.length();
			if (this.length > MAX_RESOLVED_LENGTH) {
				throw new LimitExceededException("it expands past " + MAX_RESOLVED_LENGTH + " characters");
			}
			String problem = Shape.of(value).beyondBounds();
			if (problem != null) {
				throw new LimitExceededException("the value of '" + ProblemText.line(name, ProblemText.MAX_QUOTED)
						+ "' " + problem);
			}
			return value;
		}

	}

}
