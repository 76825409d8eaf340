package dev.degradation.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dependency named by service id ({@code base_url: lb://SERVICE-ID}) is called by every URL
 * whose host is the service id, whatever the scheme and port, compared without case as Spring
 * Cloud's discovery compares ids: a {@code @LoadBalanced} client's {@code http://catalog/...}, a
 * gateway route's {@code lb://catalog}. A service with a path is called below it; a base URL at
 * one address wins over a service of the same host.
 */
class DependencyGuardsServiceIdTests {

	private final DegradationEngine engine = new DegradationEngine(ManifestLoader.standard()
		.load("manifest.yaml", """
				dependencies:
				  catalog: { base_url: "lb://catalog" }
				  catalog-search: { base_url: "lb://CATALOG/search" }
				  reviews: { base_url: "lb://reviews" }
				  local-reviews: { base_url: "http://reviews:8080" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: GET, fallback: drop, requires: [catalog, catalog-search, reviews, local-reviews] }
				""".getBytes(StandardCharsets.UTF_8)), Clock.systemUTC());

	private final DependencyGuards guards = new DependencyGuards(this.engine, CircuitBreakerRegistry.ofDefaults(),
			TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults());

	@AfterEach
	void close() {
		this.guards.close();
	}

	@ParameterizedTest
	@CsvSource(nullValues = "none", value = { "http://catalog/items, catalog", "https://catalog/items, catalog",
			"http://Catalog:8443/items?q=1, catalog", "http://CATALOG, catalog", "lb://catalog/items, catalog",
			"http://catalog/search, catalog-search", "http://catalog/search/books, catalog-search",
			"lb://catalog/searching, catalog", "http://catalogue/items, none", "http://catalog-v2/items, none",
			"http://127.0.0.1:8080/items, none", "http://reviews/x, reviews", "http://reviews:8080/x, local-reviews",
			"lb://reviews/x, reviews" })
	void aServiceIsCalledByEveryUrlWhoseHostIsItsId(String url, String dependency) {
		DependencyGuard guard = this.guards.forUrl(URI.create(url));
		assertThat((guard != null) ? guard.dependency().name() : null).as(url).isEqualTo(dependency);
	}

}
