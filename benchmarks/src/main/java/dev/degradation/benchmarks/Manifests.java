package dev.degradation.benchmarks;

import java.nio.charset.StandardCharsets;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLimits;
import dev.degradation.manifest.ManifestLoader;

/**
 * Generated manifests of a given size, loaded through the real loader, and the request paths the
 * benchmarks send to them.
 *
 * <p>Every route is a {@code GET} route, so that all of them compete for the same method: the
 * worst case for a lookup. Routes are spread over three tiers. The paths look like an API's:
 * {@code /api/area<a>/feature<f>}, ten features per area.
 */
final class Manifests {

	/** A request path that no generated route matches: a core route of a shop. */
	static final String MISS = "/api/products/p-1";

	private Manifests() {
	}

	/**
	 * Load a manifest of {@code routes} routes.
	 * @param kind {@code literal}: only literal paths; {@code pattern}: every route has a
	 * {@code {var}} or a {@code **}, and one route starts with a variable
	 * @param routes the number of routes
	 * @return the manifest
	 */
	static DegradationManifest load(String kind, int routes) {
		StringBuilder yaml = new StringBuilder("tiers:\n");
		int tiers = 3;
		for (int tier = 1; tier <= tiers; tier++) {
			yaml.append("  tier-").append(tier).append(":\n    priority: ").append(tier).append("\n    routes:\n");
			for (int i = tier - 1; i < routes; i += tiers) {
				yaml.append("      - { path: \"").append(path(kind, i, routes)).append("\", method: GET, fallback: drop }\n");
			}
		}
		return ManifestLoader.standard()
			.withLimits(new ManifestLimits(64 * 1024 * 1024, 32))
			.load(kind + "-" + routes + ".yaml", yaml.toString().getBytes(StandardCharsets.UTF_8));
	}

	private static String path(String kind, int i, int routes) {
		String base = "/api/area" + (i / 10) + "/feature" + (i % 10);
		if (kind.equals("literal")) {
			return base;
		}
		if (i == routes - 1) {
			return "/{tenant}/exports/{id}";
		}
		return (i % 2 == 0) ? base + "/{id}" : base + "/**";
	}

	/**
	 * Return a request path that matches the route in the middle of the manifest.
	 * @param kind the kind of manifest
	 * @param routes the number of routes
	 * @return the path
	 */
	static String hit(String kind, int routes) {
		int i = routes / 2;
		String base = "/api/area" + (i / 10) + "/feature" + (i % 10);
		return kind.equals("literal") ? base : base + "/42";
	}

}
