package dev.degradation.manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The fallback kinds a manifest may name, in the order they are listed to the user: the built-in
 * ones first, then the application's. The route reader asks it for a kind by name and for every
 * key that some kind reads; it knows no kind by name itself.
 */
final class FallbackKindTable {

	/** The built-in kinds alone. */
	static final FallbackKindTable BUILT_IN = new FallbackKindTable(FallbackKind.builtIn());

	private final Map<String, FallbackKind<?>> kinds;

	/** The first declaration of each key in kind order, for its wording. */
	private final Map<String, FallbackKey> keys;

	private FallbackKindTable(List<? extends FallbackKind<?>> kinds) {
		Map<String, FallbackKind<?>> byName = new LinkedHashMap<>();
		Map<String, FallbackKey> keys = new LinkedHashMap<>();
		for (FallbackKind<?> kind : kinds) {
			FallbackKind<?> previous = byName.putIfAbsent(kind.name(), kind);
			if (previous != null) {
				throw new IllegalArgumentException("Two fallback kinds are named '" + kind.name() + "': " + previous
						+ " and " + kind);
			}
			kind.keys().forEach((key) -> keys.putIfAbsent(key.name(), key));
		}
		this.kinds = byName;
		this.keys = keys;
	}

	/**
	 * Return a table with further kinds after these.
	 * @throws IllegalArgumentException if a kind's name is already taken
	 */
	FallbackKindTable with(List<? extends FallbackKind<?>> more) {
		List<FallbackKind<?>> all = new ArrayList<>(this.kinds.values());
		all.addAll(more);
		return new FallbackKindTable(all);
	}

	/**
	 * Return the kind with the given name.
	 * @return the kind, or {@code null} when there is none of that name
	 */
	@Nullable FallbackKind<?> of(String kind) {
		return this.kinds.get(kind);
	}

	/** Return the names of every kind. */
	Set<String> kinds() {
		return new LinkedHashSet<>(this.kinds.keySet());
	}

	/** Return the keys of a route that some kind reads, in kind order. */
	Set<String> fallbackKeys() {
		return this.keys.keySet();
	}

	/** Return a key as the first kind that reads it declares it. */
	FallbackKey key(String name) {
		FallbackKey key = this.keys.get(name);
		if (key == null) {
			throw new IllegalArgumentException("No kind reads '" + name + "'");
		}
		return key;
	}

	/**
	 * Return how a kind needs a key.
	 * @return the need, or {@code null} when the kind has no use for the key
	 */
	static FallbackKey.@Nullable Need need(FallbackKind<?> kind, String key) {
		for (FallbackKey declared : kind.keys()) {
			if (declared.name().equals(key)) {
				return declared.need();
			}
		}
		return null;
	}

	/** Return the first kind that reads a key, to suggest it where the key is of no use. */
	@Nullable FallbackKind<?> usingKey(String key) {
		return this.kinds.values().stream().filter((kind) -> need(kind, key) != null).findFirst().orElse(null);
	}

	/**
	 * Return every kind with what it answers, for the problem of a route without a fallback:
	 * {@code 'drop' (204, nothing done) or 'static' (...)}.
	 */
	String described() {
		List<String> kinds = this.kinds.values()
			.stream()
			.map((kind) -> "'" + kind.name() + "' (" + kind.summary() + ")")
			.toList();
		return (kinds.size() == 1) ? kinds.get(0)
				: String.join(", ", kinds.subList(0, kinds.size() - 1)) + " or " + kinds.get(kinds.size() - 1);
	}

}
