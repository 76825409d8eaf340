package dev.degradation.manifest;

import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The starter's own kinds, as a table: each kind's name, what it answers, the keys of the route it
 * needs or allows, and how it is built from them ({@link FallbackAnswers}).
 *
 * @param <F> the fallback it builds
 * @param name the name in the manifest
 * @param summary what it answers, in a few words, for the list of kinds
 * @param answer what it answers, as a verb, for the problem of a key it has no use for
 * @param keys the keys of the route it needs or allows besides the route's own
 * @param construction how the fallback is built from those keys
 * @param onlyGet whether only a {@code GET} route may have it (a replay of a stored answer)
 */
record BuiltInFallbackKind<F extends Fallback>(String name, String summary, String answer, List<FallbackKey> keys,
		Function<FallbackKeys, @Nullable F> construction, boolean onlyGet) implements FallbackKind<F> {

	/** The body of a {@code static} fallback. */
	static final FallbackKey STATIC_RESPONSE = FallbackKey.required(ManifestKeys.STATIC_RESPONSE,
			"the JSON body to answer with, such as { \"items\": [], \"source\": \"degraded\" }");

	/** The status of a static answer. */
	static final FallbackKey STATUS = FallbackKey.allowed(ManifestKeys.STATUS, "the status code to answer with");

	/** The content type of a static answer. */
	static final FallbackKey CONTENT_TYPE = FallbackKey.allowed(ManifestKeys.CONTENT_TYPE,
			"the media type of 'static_response', such as text/html");

	/** Further headers of a static answer. */
	static final FallbackKey HEADERS = FallbackKey.allowed(ManifestKeys.HEADERS, "a mapping of header name to value");

	/** The Retry-After of a 503. */
	static final FallbackKey RETRY_AFTER_SECONDS = FallbackKey.allowed(ManifestKeys.RETRY_AFTER_SECONDS,
			"the Retry-After of the 503, in seconds");

	/** How old a stale copy may be. */
	static final FallbackKey MAX_STALE_SECONDS = new FallbackKey(ManifestKeys.MAX_STALE_SECONDS,
			FallbackKey.Need.REQUIRED,
			"how old, in seconds, a stored answer may be when it is served, such as 60", "used");

	/** The request headers a stale copy varies by. */
	static final FallbackKey VARY_BY = new FallbackKey(ManifestKeys.VARY_BY, FallbackKey.Need.ALLOWED,
			"the request headers a stored answer varies by", "used");

	static final BuiltInFallbackKind<Fallback.Drop> DROP = new BuiltInFallbackKind<>(Fallback.Drop.KIND,
			"204, nothing done", "answers 204 with no body", List.of(), (keys) -> new Fallback.Drop(), false);

	static final BuiltInFallbackKind<Fallback.Static> STATIC = new BuiltInFallbackKind<>(Fallback.Static.KIND,
			"'static_response' as the body, 200 unless 'status' says otherwise", "answers with its body",
			List.of(STATIC_RESPONSE, STATUS, CONTENT_TYPE, HEADERS), FallbackAnswers::staticAnswer, false);

	static final BuiltInFallbackKind<Fallback.Unavailable> UNAVAILABLE = new BuiltInFallbackKind<>(
			Fallback.Unavailable.KIND, "503 with a bounded Retry-After", "answers 503 with no body",
			List.of(RETRY_AFTER_SECONDS), FallbackAnswers::unavailable, false);

	static final BuiltInFallbackKind<Fallback.Stale> STALE = new BuiltInFallbackKind<>(Fallback.Stale.KIND,
			"the last good answer, at most 'max_stale_seconds' old", "answers with a stored copy",
			List.of(MAX_STALE_SECONDS, VARY_BY, STATIC_RESPONSE.as(FallbackKey.Need.ALLOWED), STATUS, CONTENT_TYPE,
					HEADERS, RETRY_AFTER_SECONDS),
			FallbackAnswers::stale, true);

	BuiltInFallbackKind {
		keys = List.copyOf(keys);
	}

	@Override
	public @Nullable F read(FallbackKeys keys) {
		return this.construction.apply(keys);
	}

	@Override
	public @Nullable String methodProblem(String method) {
		if (this.onlyGet && !method.equals("GET")) {
			return "a '" + this.name + "' fallback replays a stored answer, which only a GET route may do; " + method
					+ " changes something, so use 'static', 'drop' or 'unavailable'";
		}
		return null;
	}

	@Override
	public String toString() {
		return this.name;
	}

}
