package dev.degradation.autoconfigure;

import java.nio.charset.StandardCharsets;

import org.springframework.boot.autoconfigure.preinitialize.BackgroundPreinitializer;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;

/**
 * Reads a small manifest on Spring Boot's background thread while the application starts, so that
 * the YAML parser and the manifest's model are loaded and initialized by the time the application's
 * own manifest is read on the main thread. Reading the manifest is the largest part of what the
 * starter adds to a start, and most of it is loading classes once; as Spring Boot does for Jackson,
 * Tomcat and its message converters, that work need not wait its turn on the main thread.
 *
 * <p>Nothing read here is kept: the application's manifest is still read once, from its own file,
 * and a problem in it still stops the start. A failure here is ignored, since it can only make the
 * main thread load the same classes itself. It runs before the application's properties are
 * known, so also where {@code degradation.enabled} is false; Spring Boot's system property
 * {@code spring.backgroundpreinitializer.ignore} turns it off with Boot's own warm-ups, and Boot
 * runs none on a single CPU or in a native image.
 */
final class ManifestReadingPreinitializer implements BackgroundPreinitializer {

	/**
	 * A manifest that takes the reading through each of its sections: defaults, a dependency, tiers
	 * with a route of each common fallback, and overload.
	 */
	private static final String MANIFEST = """
			defaults:
			  health_check_interval_ms: 1000
			dependencies:
			  inventory:
			    health_url: http://127.0.0.1/healthz
			    timeout_ms: 500
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - path: /api/items/{id}
			        method: GET
			        fallback: static
			        static_response: { "items": [] }
			        requires: [inventory]
			      - path: /api/feed
			        method: POST
			        fallback: drop
			overload:
			  concurrency_limit: adaptive
			""";

	@Override
	public void preinitialize() {
		try {
			read();
		}
		catch (RuntimeException | LinkageError ex) {
			// Only a warm-up: the application's own manifest is read, and judged, on its own.
		}
	}

	/**
	 * Read the warm-up's manifest as the application's is read.
	 * @return the manifest
	 */
	static DegradationManifest read() {
		return ManifestLoader.standard().load("preinitialize", MANIFEST.getBytes(StandardCharsets.UTF_8));
	}

}
