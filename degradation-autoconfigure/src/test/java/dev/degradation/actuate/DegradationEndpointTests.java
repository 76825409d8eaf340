package dev.degradation.actuate;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the endpoint shows of the manifest, without an application around it.
 */
class DegradationEndpointTests {

	@Test
	void healthUrlsAreShownWithoutCredentialsOrQuery() {
		String manifest = """
				dependencies:
				  catalog: { health_url: "https://probe:s3cret@catalog.internal:8443/healthz?api_key=k3y" }
				  search: { health_url: "http://search:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog, search] }
				""";
		DegradationEndpoint endpoint = new DegradationEndpoint(new DegradationEngine(
				ManifestLoader.standard().load("m.yaml", manifest.getBytes(StandardCharsets.UTF_8)), Clock.systemUTC()));
		DegradationEndpoint.DegradationDescriptor descriptor = endpoint.degradation();
		assertThat(descriptor.dependencies().get("catalog").healthUrl())
			.hasToString("https://catalog.internal:8443/healthz");
		assertThat(descriptor.dependencies().get("search").healthUrl()).hasToString("http://search:8080/healthz");
	}

}
