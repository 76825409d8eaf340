package dev.degradation.overload;

import org.jspecify.annotations.Nullable;

/**
 * The one reading of a whole number that a caller, or a dependency, sends in a header (a deadline,
 * a passed priority, a {@code Retry-After}): a readable value is optional spaces or tabs, an
 * optional sign and one or more ASCII digits, and nothing else; any number of digits is readable.
 * A readable value outside the range its reader gives is the nearest end of that range, however
 * far outside it lies. That is the out-of-range rule, written here once, so no value a caller can
 * send reaches anything the code keeps outside the range for itself.
 *
 * <p>Whether a value is readable is a question of its own ({@link #readable}), not a magic number
 * in the answer, and neither method allocates or throws on what a caller sends: a hostile header
 * costs one pass over its characters.
 */
public final class HeaderNumber {

	private HeaderNumber() {
	}

	/**
	 * Return whether a header's value is a readable whole number.
	 * @param value the value, or {@code null} when the header is absent
	 * @return whether {@link #clamped} may read it
	 */
	public static boolean readable(@Nullable CharSequence value) {
		if (value == null) {
			return false;
		}
		int end = end(value);
		int at = digits(value, start(value, end));
		if (at >= end) {
			return false;
		}
		for (int i = at; i < end; i++) {
			if (!digit(value.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Read a readable whole number into a range.
	 * @param value the value, {@linkplain #readable readable}
	 * @param min the lowest value of the range
	 * @param max the highest value of the range
	 * @return the number, or the nearest end of the range when it lies outside
	 * @throws IllegalArgumentException when the value is not readable or the range is empty
	 */
	public static long clamped(CharSequence value, long min, long max) {
		if (min > max) {
			throw new IllegalArgumentException("Empty range [" + min + ", " + max + "]");
		}
		if (!readable(value)) {
			throw new IllegalArgumentException("Not a whole number");
		}
		int end = end(value);
		int start = start(value, end);
		boolean negative = value.charAt(start) == '-';
		// Accumulated towards the sign's side, so Long.MIN_VALUE reads without overflow; once past
		// the range's end the rest of the digits cannot bring it back.
		long number = 0;
		for (int i = digits(value, start); i < end; i++) {
			int digit = value.charAt(i) - '0';
			if (negative) {
				if (number < (min + digit) / 10 || number < (Long.MIN_VALUE + digit) / 10) {
					return min;
				}
				number = number * 10 - digit;
			}
			else {
				if (number > (max - digit) / 10 || number > (Long.MAX_VALUE - digit) / 10) {
					return max;
				}
				number = number * 10 + digit;
			}
		}
		return Math.max(min, Math.min(max, number));
	}

	private static int start(CharSequence value, int end) {
		int start = 0;
		while (start < end && space(value.charAt(start))) {
			start++;
		}
		return start;
	}

	private static int end(CharSequence value) {
		int end = value.length();
		while (end > 0 && space(value.charAt(end - 1))) {
			end--;
		}
		return end;
	}

	/** The index of the first digit: after the sign, if there is one. */
	private static int digits(CharSequence value, int start) {
		if (start < value.length()) {
			char first = value.charAt(start);
			if (first == '-' || first == '+') {
				return start + 1;
			}
		}
		return start;
	}

	private static boolean digit(char c) {
		return c >= '0' && c <= '9';
	}

	/** Optional white space of HTTP (RFC 9110): a space or a horizontal tab. */
	private static boolean space(char c) {
		return c == ' ' || c == '\t';
	}

}
