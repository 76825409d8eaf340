package dev.degradation.manifest;

/**
 * A key of a route that belongs to its fallback kind, with what the problems of a manifest say of
 * it. A kind lists its keys; the route reader then knows them as keys of a route, reports one that
 * a route's kind has no use for, and one that its kind requires but the route leaves out, so that
 * a kind never checks presence itself.
 *
 * @param name the key, such as {@code static_response}
 * @param need whether the kind requires it or only allows it
 * @param meaning what it holds, for the problem that it is missing, such as {@code the status code
 * to answer with}
 * @param use what is done with it, as a past participle ({@code sent}, {@code used}), for the
 * problem that a kind would never do it
 */
public record FallbackKey(String name, Need need, String meaning, String use) {

	/**
	 * Return a key the kind cannot do without.
	 * @param name the key
	 * @param meaning what it holds
	 * @return the key
	 */
	public static FallbackKey required(String name, String meaning) {
		return new FallbackKey(name, Need.REQUIRED, meaning, "sent");
	}

	/**
	 * Return a key the kind may be given.
	 * @param name the key
	 * @param meaning what it holds
	 * @return the key
	 */
	public static FallbackKey allowed(String name, String meaning) {
		return new FallbackKey(name, Need.ALLOWED, meaning, "sent");
	}

	FallbackKey as(Need need) {
		return new FallbackKey(this.name, need, this.meaning, this.use);
	}

	/**
	 * Whether a kind needs a key of the route.
	 */
	public enum Need {

		/** The key must be written, with a value. */
		REQUIRED,

		/** The key may be written. */
		ALLOWED

	}

}
