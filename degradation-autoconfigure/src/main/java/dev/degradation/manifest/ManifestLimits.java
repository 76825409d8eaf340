package dev.degradation.manifest;

/**
 * Bounds on what the manifest parser accepts, so that a hostile file is refused before it costs
 * memory or time.
 *
 * @param maxBytes the largest manifest, in bytes
 * @param maxDepth the deepest nesting of mappings and lists
 */
public record ManifestLimits(int maxBytes, int maxDepth) {

	/** Limits far above any real manifest: 1 MiB and 32 levels. */
	public static final ManifestLimits DEFAULT = new ManifestLimits(1024 * 1024, 32);

	public ManifestLimits {
		if (maxBytes < 1) {
			throw new IllegalArgumentException("'maxBytes' must be positive, was " + maxBytes);
		}
		if (maxDepth < 4) {
			throw new IllegalArgumentException("'maxDepth' must be at least 4, was " + maxDepth);
		}
	}

}
