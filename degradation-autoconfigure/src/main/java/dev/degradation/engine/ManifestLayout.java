package dev.degradation.engine;

import java.util.List;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;

/**
 * The manifest with what the engine derives from it once: its routes in shed order, each route's
 * tier priority, and the routes' fallback counts. Replaced whole on a reload, so that a state is
 * always derived from one manifest.
 */
final class ManifestLayout {

	final DegradationManifest manifest;

	final List<Route> routes;

	final int[] priorities;

	final FallbackCounts fallbackCounts;

	ManifestLayout(DegradationManifest manifest, List<String> kinds) {
		this.manifest = manifest;
		this.routes = manifest.routes();
		this.priorities = new int[this.routes.size()];
		int index = 0;
		for (Tier tier : manifest.tiers()) {
			for (int i = 0; i < tier.routes().size(); i++) {
				this.priorities[index++] = tier.priority();
			}
		}
		this.fallbackCounts = new FallbackCounts(this.routes.size(), kinds);
	}

}
