package dev.degradation.manifest;

/**
 * Bounds on what the manifest parser accepts, so that a hostile file is refused before it costs
 * memory or time.
 *
 * @param maxBytes the largest manifest, in bytes
 * @param maxDepth the deepest nesting of mappings and lists, aliases expanded
 * @param maxAliases the most YAML aliases ({@code *name}) a manifest may use
 * @param maxValues the most values (mappings, lists and scalars) a manifest may hold once its
 * aliases are expanded; a manifest of the default size without aliases cannot reach the default,
 * so only aliases can (an alias bomb, "billion laughs", does at once)
 */
public record ManifestLimits(int maxBytes, int maxDepth, int maxAliases, int maxValues) {

	/** The most aliases by default: more than one for each route of a large manifest. */
	public static final int DEFAULT_MAX_ALIASES = 1000;

	/** The most values by default, aliases expanded: about twice what 1 MiB of YAML holds without. */
	public static final int DEFAULT_MAX_VALUES = 1_000_000;

	/**
	 * Limits far above any real manifest: 1 MiB, 32 levels, {@value #DEFAULT_MAX_ALIASES} aliases
	 * and {@value #DEFAULT_MAX_VALUES} values, aliases expanded.
	 */
	public static final ManifestLimits DEFAULT = new ManifestLimits(1024 * 1024, 32);

	public ManifestLimits {
		if (maxBytes < 1) {
			throw new IllegalArgumentException("'maxBytes' must be positive, was " + maxBytes);
		}
		if (maxDepth < 4) {
			throw new IllegalArgumentException("'maxDepth' must be at least 4, was " + maxDepth);
		}
		if (maxAliases < 0) {
			throw new IllegalArgumentException("'maxAliases' must not be negative, was " + maxAliases);
		}
		if (maxValues < 1) {
			throw new IllegalArgumentException("'maxValues' must be positive, was " + maxValues);
		}
	}

	/**
	 * Create limits of size and depth, with the default bounds on aliases.
	 * @param maxBytes the largest manifest, in bytes
	 * @param maxDepth the deepest nesting of mappings and lists
	 */
	public ManifestLimits(int maxBytes, int maxDepth) {
		this(maxBytes, maxDepth, DEFAULT_MAX_ALIASES, DEFAULT_MAX_VALUES);
	}

}
