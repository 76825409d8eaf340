package dev.degradation.manifest;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Text from a manifest as a problem shows it. A problem is one line in a terminal, a CI log or a
 * startup failure, and the text it quotes comes from a file that may be hostile: control
 * characters (an escape sequence a terminal would act on, a line break that forges another
 * problem line) and bidirectional overrides are shown as {@code \}{@code uXXXX}, and a value of
 * any length is shortened in the middle.
 */
final class ProblemText {

	/** The most characters of a value a problem quotes. */
	static final int MAX_QUOTED = 100;

	/** The most characters of a message or a path; only hostile input comes close. */
	static final int MAX_LINE = 2000;

	private ProblemText() {
	}

	/**
	 * Return a value in single quotes, printable, and with its length when it had to be shortened.
	 * @param text the value as written in the manifest
	 * @return {@code 'text'}, or {@code 'head…tail' (N characters)}
	 */
	static String quote(String text) {
		String printable = printable(text);
		if (printable.length() <= MAX_QUOTED) {
			return "'" + printable + "'";
		}
		return "'" + shorten(printable, MAX_QUOTED) + "' (" + text.codePointCount(0, text.length()) + " characters)";
	}

	/**
	 * Return a number as a reader would write it: plain while that is short, in scientific notation
	 * otherwise ({@code 1E+999999999} rather than a billion digits).
	 * @param number the number
	 * @return its text
	 */
	static String number(BigDecimal number) {
		int integerDigits = number.precision() - number.scale();
		return (Math.abs(number.scale()) <= 30 && integerDigits <= 30) ? number.toPlainString() : number.toString();
	}

	/**
	 * Return a line that is printable and at most {@code max} characters long.
	 * @param text the text
	 * @param max the most characters to keep
	 * @return the text, shortened in the middle if needed
	 */
	static String line(String text, int max) {
		return shorten(printable(text), max);
	}

	private static String shorten(String text, int max) {
		if (text.length() <= max) {
			return text;
		}
		int head = boundary(text, max * 3 / 4);
		int tail = boundary(text, text.length() - (max - max * 3 / 4 - 1));
		return text.substring(0, head) + "…" + text.substring(tail);
	}

	/** Move an index off the second half of a surrogate pair, so no character is cut in two. */
	private static int boundary(String text, int index) {
		return (index > 0 && index < text.length() && Character.isLowSurrogate(text.charAt(index))
				&& Character.isHighSurrogate(text.charAt(index - 1))) ? index - 1 : index;
	}

	private static String printable(String text) {
		StringBuilder printable = null;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
					&& Character.isLowSurrogate(text.charAt(i + 1));
			if (!pair && isUnprintable(c)) {
				if (printable == null) {
					printable = new StringBuilder(text.length() + 16).append(text, 0, i);
				}
				printable.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
			}
			else if (printable != null) {
				printable.append(c);
				if (pair) {
					printable.append(text.charAt(i + 1));
				}
			}
			if (pair) {
				i++;
			}
		}
		return (printable != null) ? printable.toString() : text;
	}

	/**
	 * Whether a character would act on a terminal or a viewer instead of showing: controls, line
	 * and paragraph separators, bidirectional formatting, a byte order mark, half of a surrogate
	 * pair.
	 */
	private static boolean isUnprintable(char c) {
		return Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || (c >= '\u202A' && c <= '\u202E')
				|| (c >= '\u2066' && c <= '\u2069') || c == '\u200E' || c == '\u200F' || c == '\uFEFF'
				|| Character.isSurrogate(c);
	}

}
