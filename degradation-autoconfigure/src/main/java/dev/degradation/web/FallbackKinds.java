package dev.degradation.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.FallbackKind;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.Route;

/**
 * The fallback kinds of an application, as one registry: the built-in ones first, then the
 * application's, each a {@link ServedFallbackKind}. It finds the kind of a route's fallback by
 * its name and lets that kind write and judge the route's answer, so that neither the route table
 * nor the contract tests hold a chain of kinds; a kind is added by adding it here (the starter
 * adds every {@code ServedFallbackKind} bean), and the manifest's loader learns it from
 * {@link #loader(ManifestLoader)}.
 *
 * <p>Instances are immutable.
 */
public final class FallbackKinds {

	private static final FallbackKinds BUILT_IN = new FallbackKinds(BuiltInKinds.all(), List.of());

	private final Map<String, ServedFallbackKind<?>> kinds;

	private final List<ServedFallbackKind<?>> added;

	private FallbackKinds(List<ServedFallbackKind<?>> builtIn, List<ServedFallbackKind<?>> added) {
		Map<String, ServedFallbackKind<?>> kinds = new LinkedHashMap<>();
		for (ServedFallbackKind<?> kind : builtIn) {
			kinds.put(kind.name(), kind);
		}
		for (ServedFallbackKind<?> kind : added) {
			ServedFallbackKind<?> previous = kinds.putIfAbsent(kind.name(), kind);
			if (previous != null) {
				throw new IllegalArgumentException("The fallback kind " + kind.getClass().getName() + " is named '"
						+ kind.name() + "', which is already the name of " + describe(previous)
						+ "; give it a name of its own");
			}
		}
		this.kinds = kinds;
		this.added = List.copyOf(added);
	}

	/**
	 * Return the built-in kinds alone: {@code drop}, {@code static}, {@code unavailable} and
	 * {@code stale}.
	 * @return the registry
	 */
	public static FallbackKinds builtIn() {
		return BUILT_IN;
	}

	/**
	 * Return the built-in kinds with the application's.
	 * @param kinds the application's kinds, in the order they are listed to the user
	 * @return the registry
	 * @throws IllegalArgumentException if two kinds have the same name
	 */
	public static FallbackKinds with(List<? extends ServedFallbackKind<?>> kinds) {
		return kinds.isEmpty() ? BUILT_IN : new FallbackKinds(BuiltInKinds.all(), new ArrayList<>(kinds));
	}

	/**
	 * Return a copy of a manifest loader that knows the kinds added to the built-in ones.
	 * @param loader the loader
	 * @return the loader that reads every kind of this registry
	 */
	public ManifestLoader loader(ManifestLoader loader) {
		return this.added.isEmpty() ? loader : loader.withFallbackKinds(this.added);
	}

	/**
	 * Return every kind, the built-in ones first.
	 * @return the kinds
	 */
	public List<ServedFallbackKind<?>> kinds() {
		return List.copyOf(this.kinds.values());
	}

	/**
	 * Return the writer of a route's fallback.
	 * @param route the route
	 * @param staleAnswers where a kind that replays answers keeps its copies
	 * @return the writer
	 * @throws IllegalArgumentException if no kind of this registry has the route's fallback's name
	 */
	public FallbackWriter writer(Route route, StaleAnswers staleAnswers) {
		return with(route.fallback(), new Use<FallbackWriter>() {
			@Override
			public <F extends Fallback> FallbackWriter apply(ServedFallbackKind<F> kind, F fallback) {
				return kind.writer(route, fallback, staleAnswers);
			}
		});
	}

	/**
	 * Return how an answer of a route differs from what its fallback declares, as its kind judges.
	 * @param route the route
	 * @param answer the answer, to a request that is not {@code HEAD}
	 * @return the differences, empty when there are none
	 * @see ServedFallbackKind#differences
	 */
	public List<String> differences(Route route, ServedAnswer answer) {
		return with(route.fallback(), new Use<List<String>>() {
			@Override
			public <F extends Fallback> List<String> apply(ServedFallbackKind<F> kind, F fallback) {
				return kind.differences(route, fallback, answer);
			}
		});
	}

	/**
	 * Return what an answer of a route's fallback holds beyond its status and markers.
	 * @param route the route
	 * @param method the request's method
	 * @return the description, starting with {@code ", "}, or empty
	 * @see ServedFallbackKind#expected
	 */
	public String expected(Route route, String method) {
		return with(route.fallback(), new Use<String>() {
			@Override
			public <F extends Fallback> String apply(ServedFallbackKind<F> kind, F fallback) {
				return kind.expected(fallback, method);
			}
		});
	}

	/**
	 * Return what a shed request of a route gets, as a test is named.
	 * @param route the route
	 * @return the promise
	 * @see ServedFallbackKind#promise
	 */
	public String promise(Route route) {
		return with(route.fallback(), new Use<String>() {
			@Override
			public <F extends Fallback> String apply(ServedFallbackKind<F> kind, F fallback) {
				return kind.promise(fallback);
			}
		});
	}

	/**
	 * The kind built the fallback (the route reader checks that the names agree), so the cast
	 * holds for every manifest this registry's loader read.
	 */
	@SuppressWarnings("unchecked")
	private <R> R with(Fallback fallback, Use<R> use) {
		ServedFallbackKind<?> kind = this.kinds.get(fallback.kind());
		if (kind == null) {
			// A kind without a writer must fail when the table is compiled, never answer as another.
			throw new IllegalArgumentException("No fallback kind '" + fallback.kind() + "' is registered; the kinds "
					+ "are " + this.kinds.keySet());
		}
		return use.apply((ServedFallbackKind<Fallback>) kind, fallback);
	}

	private static String describe(ServedFallbackKind<?> kind) {
		return (kind instanceof BuiltInKinds.BuiltInKind<?>) ? "a built-in kind" : kind.getClass().getName();
	}

	/**
	 * What is done with a kind and its fallback, with their types agreed.
	 */
	private interface Use<R> {

		<F extends Fallback> R apply(ServedFallbackKind<F> kind, F fallback);

	}

}
