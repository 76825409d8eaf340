package dev.degradation.manifest;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Reads the typed values of a manifest (text, whole numbers, durations, fractions, names) with
 * their placeholders resolved, and records a positioned problem for each value that is not what
 * its key needs. The readers of the sections share one, so that a value means the same wherever it
 * is written.
 */
final class ValueReader {

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

	/**
	 * Text that a reader takes for a number but YAML (as Jackson reads it) does not: quoted
	 * numbers, hexadecimal, octal, binary, '_' separators, a leading '+' or '.', infinity.
	 */
	private static final Pattern NUMBER_LIKE = Pattern
		.compile("(?i)[-+]?(0x[0-9a-f_]+|0o[0-7_]+|0b[01_]+|[0-9_]*\\.?[0-9_]+(e[-+]?[0-9]+)?|\\.inf|\\.nan)");

	private final Problems problems;

	private final UnaryOperator<String> placeholders;

	private final boolean placeholdersRequired;

	/**
	 * Create a reader of values.
	 * @param placeholdersRequired whether a placeholder the resolver cannot resolve is a problem;
	 * when not, the value that holds it is left unchecked, for validating a manifest away from the
	 * environment that will resolve it
	 */
	ValueReader(Problems problems, UnaryOperator<String> placeholders, boolean placeholdersRequired) {
		this.problems = problems;
		this.placeholders = placeholders;
		this.placeholdersRequired = placeholdersRequired;
	}

	Problems problems() {
		return this.problems;
	}

	/**
	 * Report every key of a mapping that is not one of the known keys, with the known key it most
	 * resembles.
	 */
	void checkKeys(YamlNode.Mapping mapping, String path, Set<String> known) {
		for (YamlNode.Entry entry : mapping.entries().values()) {
			if (!known.contains(entry.key())) {
				this.problems.add(entry.keyPosition(), path.isEmpty() ? entry.key() : path + "." + entry.key(),
						"unknown key " + ProblemText.quote(entry.key()) + Suggestions.hint(entry.key(), known)
								+ " (known keys: " + sorted(known) + ")");
			}
		}
	}

	/**
	 * Report the key of an entry if it is not a valid name for a dependency or a tier.
	 */
	void checkName(YamlNode.Entry entry, String path, String what) {
		if (!NAME.matcher(entry.key()).matches()) {
			this.problems.add(entry.keyPosition(), path, ProblemText.quote(entry.key()) + " is not a valid " + what
					+ " name: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64");
		}
	}

	/**
	 * Report a name written as a value (a route's {@code name}) if it is not a valid name.
	 * @return whether it is valid
	 */
	boolean checkName(String name, Position position, String path, String what) {
		if (!NAME.matcher(name).matches()) {
			this.problems.add(position, path, ProblemText.quote(name) + " is not a valid " + what
					+ " name: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64");
			return false;
		}
		return true;
	}

	/**
	 * Read an optional mapping.
	 * @return the mapping, or {@code null} when it is left out, empty, or not a mapping (reported)
	 */
	YamlNode.@Nullable Mapping optionalMapping(YamlNode.Mapping parent, String key, String path) {
		YamlNode.Entry entry = parent.entries().get(key);
		if (entry == null || (entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull())) {
			return null;
		}
		if (entry.value() instanceof YamlNode.Mapping mapping) {
			return mapping;
		}
		this.problems.add(entry.value().position(), path,
				"'" + key + "' must be a mapping, but it is " + entry.value().describe());
		return null;
	}

	/**
	 * Read an optional text value.
	 */
	Setting<String> text(YamlNode.Mapping mapping, String path, String key) {
		String keyPath = path + "." + key;
		YamlNode.Entry entry = mapping.entries().get(key);
		return new Setting<>(keyPath, entry, (entry != null) ? text(entry.value(), keyPath) : null);
	}

	/**
	 * Read a text value that must not be blank.
	 * @return the text with its placeholders resolved, or {@code null} when it is not usable
	 * (reported) or not known yet (an unresolved placeholder)
	 */
	@Nullable String text(YamlNode node, String path) {
		if (!(node instanceof YamlNode.Scalar scalar) || scalar.isNull()) {
			this.problems.add(node.position(), path, "expected a text value, but found " + node.describe());
			return null;
		}
		if (scalar.kind() != YamlNode.Kind.STRING) {
			this.problems.add(node.position(), path, "expected a text value, but found " + node.describe()
					+ "; put it in quotes if it is meant as text");
			return null;
		}
		String text = resolve(scalar, path);
		if (text != null && text.isBlank()) {
			this.problems.add(node.position(), path, "must not be blank");
			return null;
		}
		return text;
	}

	/**
	 * Read an optional whole number between {@code min} and {@code max}.
	 */
	Setting<Long> wholeNumber(YamlNode.Mapping mapping, String path, String key, long min, long max) {
		String keyPath = path + "." + key;
		YamlNode.Entry entry = mapping.entries().get(key);
		return new Setting<>(keyPath, entry, (entry != null) ? wholeNumber(entry, keyPath, min, max) : null);
	}

	/**
	 * Read a whole number between {@code min} and {@code max} that must be written.
	 * @param meaning what the key means, for the problem that it is missing
	 */
	Setting<Long> requiredWholeNumber(YamlNode.Mapping mapping, String path, String key, long min, long max,
			String meaning) {
		Setting<Long> number = wholeNumber(mapping, path, key, min, max);
		if (!number.written()) {
			this.problems.add(mapping.position(), number.path(), "missing '" + key + "': " + meaning);
		}
		return number;
	}

	/**
	 * Read an optional duration, written as a whole number of {@code unit} between {@code min}
	 * and {@code max}.
	 */
	Setting<Duration> duration(YamlNode.Mapping mapping, String path, String key, ChronoUnit unit, long min,
			long max) {
		return wholeNumber(mapping, path, key, min, max).map((amount) -> Duration.of(amount, unit));
	}

	/**
	 * Read an optional error rate: above 0 and at most 1, or, when zero is allowed, at least 0 and
	 * below 1.
	 */
	Setting<Double> fraction(YamlNode.Mapping mapping, String path, String key, boolean zeroAllowed) {
		String keyPath = path + "." + key;
		YamlNode.Entry entry = mapping.entries().get(key);
		return new Setting<>(keyPath, entry, (entry != null) ? fraction(entry, keyPath, zeroAllowed) : null);
	}

	/**
	 * Read a number, whole or decimal, between {@code min} and {@code max}, that must be written.
	 * @param meaning what the key means, for the problem that it is missing
	 * @return the number, or {@code null} when it is missing or not usable (reported)
	 */
	@Nullable Double requiredNumber(YamlNode.Mapping mapping, String path, String key, double min, double max,
			String meaning) {
		String keyPath = path + "." + key;
		YamlNode.Entry entry = mapping.entries().get(key);
		if (entry == null) {
			this.problems.add(mapping.position(), keyPath, "missing '" + key + "': " + meaning);
			return null;
		}
		BigDecimal number = number(entry.value(), keyPath);
		if (number == null) {
			return null;
		}
		if (number.compareTo(BigDecimal.valueOf(min)) < 0 || number.compareTo(BigDecimal.valueOf(max)) > 0) {
			this.problems.add(entry.value().position(), keyPath, "'" + key + "' must be between "
					+ ProblemText.number(BigDecimal.valueOf(min)) + " and " + ProblemText.number(BigDecimal.valueOf(max))
					+ ", but it is " + ProblemText.number(number));
			return null;
		}
		return number.doubleValue();
	}

	private @Nullable Long wholeNumber(YamlNode.Entry entry, String keyPath, long min, long max) {
		BigDecimal number = number(entry.value(), keyPath);
		if (number == null) {
			return null;
		}
		// Compared, never expanded: 1e999999999 is a dozen characters and a billion digits.
		if (number.signum() != 0 && number.stripTrailingZeros().scale() > 0) {
			this.problems.add(entry.value().position(), keyPath,
					"'" + entry.key() + "' must be a whole number, but it is " + ProblemText.number(number));
			return null;
		}
		if (number.compareTo(BigDecimal.valueOf(min)) < 0 || number.compareTo(BigDecimal.valueOf(max)) > 0) {
			this.problems.add(entry.value().position(), keyPath, "'" + entry.key() + "' must be between " + min
					+ " and " + max + ", but it is " + ProblemText.number(number));
			return null;
		}
		return number.longValueExact();
	}

	private @Nullable Double fraction(YamlNode.Entry entry, String keyPath, boolean zeroAllowed) {
		BigDecimal number = number(entry.value(), keyPath);
		if (number == null) {
			return null;
		}
		boolean aboveMin = zeroAllowed ? number.signum() >= 0 : number.signum() > 0;
		boolean belowMax = zeroAllowed ? number.compareTo(BigDecimal.ONE) < 0 : number.compareTo(BigDecimal.ONE) <= 0;
		if (!aboveMin || !belowMax) {
			String range = zeroAllowed ? "at least 0 and below 1" : "above 0 and at most 1";
			this.problems.add(entry.value().position(), keyPath, "'" + entry.key() + "' is an error rate and must be "
					+ range + ", but it is " + ProblemText.number(number));
			return null;
		}
		return number.doubleValue();
	}

	private @Nullable BigDecimal number(YamlNode node, String path) {
		if (node instanceof YamlNode.Scalar scalar) {
			if (scalar.kind() == YamlNode.Kind.INTEGER || scalar.kind() == YamlNode.Kind.DECIMAL) {
				return new BigDecimal(scalar.text());
			}
			if (scalar.kind() == YamlNode.Kind.STRING && scalar.text().contains("${")) {
				String resolved = resolve(scalar, path);
				if (resolved == null) {
					return null;
				}
				try {
					return new BigDecimal(resolved.trim());
				}
				catch (NumberFormatException ex) {
					this.problems.add(node.position(), path, "expected a number, but "
							+ ProblemText.quote(scalar.text()) + " resolved to " + ProblemText.quote(resolved));
					return null;
				}
			}
		}
		String hint = (node instanceof YamlNode.Scalar scalar && scalar.kind() == YamlNode.Kind.STRING
				&& NUMBER_LIKE.matcher(scalar.text()).matches())
						? "; write a plain decimal number without quotes, such as 2000 or 0.5" : "";
		this.problems.add(node.position(), path, "expected a number, but found " + node.describe() + hint);
		return null;
	}

	/**
	 * Resolve the placeholders of a text value.
	 * @return the resolved text, or {@code null} when it cannot be resolved, which is reported
	 * unless placeholders are not required, in which case the value is left unchecked
	 */
	private @Nullable String resolve(YamlNode.Scalar scalar, String path) {
		if (scalar.kind() != YamlNode.Kind.STRING || !scalar.text().contains("${")) {
			return scalar.text();
		}
		String shapeError = Placeholders.check(scalar.text());
		if (shapeError != null) {
			this.problems.add(scalar.position(), path, ProblemText.quote(scalar.text()) + " " + shapeError);
			return null;
		}
		String resolved;
		try {
			resolved = this.placeholders.apply(scalar.text());
		}
		catch (Placeholders.LimitExceededException ex) {
			return refused(scalar, path, String.valueOf(ex.getMessage()));
		}
		catch (IllegalArgumentException ex) {
			if (this.placeholdersRequired) {
				this.problems.add(scalar.position(), path,
						"cannot resolve a placeholder in " + ProblemText.quote(scalar.text()) + ": "
								+ ProblemText.line(String.valueOf(ex.getMessage()), ProblemText.MAX_QUOTED * 3));
			}
			return null;
		}
		catch (RuntimeException | StackOverflowError ex) {
			// A resolver other than the bounded one (a user's, or an Environment's own) may still
			// recurse through the values it finds; whatever it throws, the value is refused.
			return refused(scalar, path, "resolving it failed with " + ex.getClass().getSimpleName()
					+ ((ex.getMessage() != null) ? ": " + ex.getMessage() : ""));
		}
		if (resolved.length() > Placeholders.MAX_RESOLVED_LENGTH + scalar.text().length()) {
			return refused(scalar, path, "it expands past " + Placeholders.MAX_RESOLVED_LENGTH + " characters");
		}
		return resolved;
	}

	private @Nullable String refused(YamlNode.Scalar scalar, String path, String why) {
		this.problems.add(scalar.position(), path, "cannot resolve the placeholders of "
				+ ProblemText.quote(scalar.text()) + ": " + ProblemText.line(why, ProblemText.MAX_QUOTED * 3));
		return null;
	}

	/**
	 * Return values sorted and separated by commas, as messages list what is allowed.
	 */
	static String sorted(Collection<String> values) {
		return String.join(", ", values.stream().sorted().toList());
	}

}
