package dev.degradation.manifest;

import java.util.Collection;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Finds the known name closest to a mistyped one, so that a typo is answered with "did you mean".
 * Used for manifest keys and names, and for routes that match no handler of the application.
 */
public final class Suggestions {

	private Suggestions() {
	}

	/**
	 * Return the candidate closest to {@code given}, if it is close enough to be a likely typo.
	 * @param given the name that was written
	 * @param candidates the names that would have been accepted
	 * @return the suggestion, or {@code null} when nothing is close
	 */
	public static @Nullable String closest(String given, Collection<String> candidates) {
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		String normalizedGiven = normalize(given);
		for (String candidate : candidates) {
			int distance = distance(normalizedGiven, normalize(candidate));
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		int allowed = Math.max(2, given.length() / 3);
		return (best != null && bestDistance <= allowed) ? best : null;
	}

	/**
	 * Return " (did you mean 'x'?)" for the closest candidate, or an empty string.
	 * @param given the name that was written
	 * @param candidates the names that would have been accepted
	 * @return the hint, ready to append to a message
	 */
	public static String hint(String given, Collection<String> candidates) {
		String closest = closest(given, candidates);
		return (closest != null) ? "; did you mean '" + closest + "'?" : "";
	}

	private static String normalize(String name) {
		return name.toLowerCase(Locale.ROOT).replace('-', '_');
	}

	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
