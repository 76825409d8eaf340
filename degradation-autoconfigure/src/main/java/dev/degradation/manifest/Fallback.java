package dev.degradation.manifest;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a route answers while its tier is shed. A fallback always does less work than the route it
 * replaces: it is decided when the manifest loads and never calls a dependency.
 *
 * <p>The built-in kinds are the records here; an application adds a kind as a
 * {@link FallbackKind} that builds a fallback of its own, an immutable value (a record) that holds
 * what its keys said.
 */
public interface Fallback {

	/**
	 * Return the manifest name of this kind of fallback, as used in the {@code fallback} key and
	 * in metric tags.
	 * @return the kind
	 */
	String kind();

	/**
	 * Return the status this fallback answers with: what the endpoint shows, what {@code walk}
	 * and the contract tests expect of a shed route, from this one place.
	 * @return the status, or {@link #STATUS_OF_WHAT_IT_HOLDS} when it depends on what the route
	 * holds ({@code stale}: its copy, its static answer or 503)
	 */
	int answerStatus();

	/** The {@link #answerStatus()} of a fallback whose status depends on what the route holds. */
	int STATUS_OF_WHAT_IT_HOLDS = 0;

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

		@Override
		public int answerStatus() {
			return 204;
		}

	}

	/**
	 * Answer with a fixed body ({@code static_response}), {@code 200} and JSON unless the manifest
	 * says otherwise.
	 *
	 * @param body the body, serialized once when the manifest loads (JSON, or the text as written
	 * for another content type)
	 * @param status the status code ({@code status}, default 200)
	 * @param contentType the content type ({@code content_type}, default {@code application/json})
	 * @param headers further headers to send ({@code headers}), in the order written
	 */
	record Static(String body, int status, String contentType, Map<String, String> headers) implements Fallback {

		/** The manifest name of this fallback. */
		public static final String KIND = "static";

		/** The content type of a static answer that names none. */
		public static final String DEFAULT_CONTENT_TYPE = "application/json";

		public Static {
			headers = Map.copyOf(headers);
		}

		/**
		 * Create a {@code 200} JSON answer without further headers.
		 * @param json the body
		 */
		public Static(String json) {
			this(json, 200, DEFAULT_CONTENT_TYPE, Map.of());
		}

		@Override
		public String kind() {
			return KIND;
		}

		@Override
		public int answerStatus() {
			return this.status;
		}

	}

	/**
	 * Answer {@code 503 Service Unavailable} with a bounded {@code Retry-After}: fail fast where no
	 * reduced answer would be honest.
	 *
	 * @param retryAfterSeconds the {@code Retry-After} to send ({@code retry_after_seconds})
	 */
	record Unavailable(int retryAfterSeconds) implements Fallback {

		/** The manifest name of this fallback. */
		public static final String KIND = "unavailable";

		/** The {@code Retry-After} of an {@code unavailable} fallback that names none. */
		public static final int DEFAULT_RETRY_AFTER_SECONDS = 30;

		/** The longest {@code Retry-After} a manifest may ask for. */
		public static final int MAX_RETRY_AFTER_SECONDS = 3600;

		@Override
		public String kind() {
			return KIND;
		}

		@Override
		public int answerStatus() {
			return 503;
		}

	}

	/**
	 * Answer with the route's last good answer to the same request, at most
	 * {@code max_stale_seconds} old; past that bound, or without a copy, with {@code otherwise}.
	 *
	 * @param maxStaleSeconds how old a copy may be when it is served ({@code max_stale_seconds})
	 * @param varyBy the request headers a copy varies by ({@code vary_by}), lower case; a request
	 * carrying credentials or cookies is only stored when their header is named here
	 * @param otherwise the answer without a usable copy: the route's {@code static_response}, or
	 * else {@code 503} with a {@code Retry-After}
	 */
	record Stale(int maxStaleSeconds, List<String> varyBy, Fallback otherwise) implements Fallback {

		/** The manifest name of this fallback. */
		public static final String KIND = "stale";

		/** The longest {@code max_stale_seconds} a manifest may ask for (a day). */
		public static final int MAX_STALE_SECONDS = 86_400;

		public Stale {
			varyBy = List.copyOf(varyBy);
			if (!(otherwise instanceof Static) && !(otherwise instanceof Unavailable)) {
				throw new IllegalArgumentException("A stale fallback falls back to a static or an unavailable answer");
			}
		}

		/**
		 * Return the static answer sent without a usable copy, if the route has one.
		 * @return the static answer, or {@code null} when the route answers 503 instead
		 */
		public @Nullable Static staticResponse() {
			return (this.otherwise instanceof Static staticResponse) ? staticResponse : null;
		}

		@Override
		public String kind() {
			return KIND;
		}

		@Override
		public int answerStatus() {
			return STATUS_OF_WHAT_IT_HOLDS;
		}

	}

}
