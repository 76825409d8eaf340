package dev.degradation.manifest;

/**
 * What a route answers while its tier is shed. A fallback always does less work than the route it
 * replaces: it is decided when the manifest loads and never calls a dependency.
 */
public sealed interface Fallback permits Fallback.Drop, Fallback.Static {

	/**
	 * Return the manifest name of this kind of fallback, as used in the {@code fallback} key and
	 * in metric tags.
	 * @return the kind
	 */
	String kind();

	/**
	 * Answer {@code 204 No Content}: the request is accepted and nothing is done.
	 */
	record Drop() implements Fallback {

		/** The manifest name of this fallback. */
		public static final String KIND = "drop";

		@Override
		public String kind() {
			return KIND;
		}

	}

	/**
	 * Answer {@code 200} with a fixed JSON body ({@code static_response}).
	 *
	 * @param json the body, serialized once when the manifest loads
	 */
	record Static(String json) implements Fallback {

		/** The manifest name of this fallback. */
		public static final String KIND = "static";

		@Override
		public String kind() {
			return KIND;
		}

	}

}
