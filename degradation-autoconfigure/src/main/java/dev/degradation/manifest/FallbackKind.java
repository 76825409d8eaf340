package dev.degradation.manifest;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A kind of fallback as the manifest knows it: its name in {@code fallback}, the keys of the route
 * it reads, and how it builds its {@link Fallback} from them when the manifest loads. The route
 * reader knows no kind by name; it asks the kinds it was given ({@link #builtIn() the built-in
 * ones} and the application's, through {@link ManifestLoader#withFallbackKinds}) in turn, as
 * Resilience4j's fallback decorators are asked whether they support a method.
 *
 * <p>A kind the application adds is one type that also writes its answer and says what the
 * contract tests expect of it ({@code dev.degradation.web.ServedFallbackKind}); this half is plain
 * Java, so that tools validate a manifest without an application.
 *
 * @param <F> the fallback it builds
 */
public interface FallbackKind<F extends Fallback> {

	/** {@code drop}: 204, nothing done. */
	FallbackKind<Fallback.Drop> DROP = BuiltInFallbackKind.DROP;

	/** {@code static}: a fixed body, 200 and JSON unless {@code status} and {@code content_type} say otherwise. */
	FallbackKind<Fallback.Static> STATIC = BuiltInFallbackKind.STATIC;

	/** {@code unavailable}: 503 with a bounded {@code Retry-After}. */
	FallbackKind<Fallback.Unavailable> UNAVAILABLE = BuiltInFallbackKind.UNAVAILABLE;

	/** {@code stale}: the last good answer, at most {@code max_stale_seconds} old; then static or 503. */
	FallbackKind<Fallback.Stale> STALE = BuiltInFallbackKind.STALE;

	/**
	 * Return the name of the kind, as written in {@code fallback} and as {@link Fallback#kind()}
	 * returns it.
	 * @return the name
	 */
	String name();

	/**
	 * Return what it answers, in a few words, for the list of kinds in the problem of a route
	 * without a fallback, such as {@code 204, nothing done}.
	 * @return the summary
	 */
	String summary();

	/**
	 * Return what it answers, as a verb, for the problem of a key it has no use for, such as
	 * {@code answers 204 with no body}.
	 * @return the answer
	 */
	String answer();

	/**
	 * Return the keys of a route it reads besides the route's own, in the order their problems are
	 * reported.
	 * @return the keys
	 */
	List<FallbackKey> keys();

	/**
	 * Build the fallback of a route from its keys, every required one present and none it does
	 * not declare.
	 * @param keys the route's keys
	 * @return the fallback, or {@code null} when a value is not usable (reported through
	 * {@link FallbackKeys#problem})
	 */
	@Nullable F read(FallbackKeys keys);

	/**
	 * Return why a route of this method cannot have this kind, such as a replay of a stored answer
	 * for a method that changes something.
	 * @param method the route's method, upper case
	 * @return the problem, or {@code null} when the method is fine
	 */
	default @Nullable String methodProblem(String method) {
		return null;
	}

	/**
	 * Return the built-in kinds, in the order they are listed to the user.
	 * @return {@code drop}, {@code static}, {@code unavailable} and {@code stale}
	 */
	static List<FallbackKind<?>> builtIn() {
		return List.of(DROP, STATIC, UNAVAILABLE, STALE);
	}

}
