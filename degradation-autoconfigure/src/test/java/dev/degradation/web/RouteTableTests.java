package dev.degradation.web;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.http.server.PathContainer;

import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lookup in the compiled route table: patterns, specificity, and methods.
 */
class RouteTableTests {

	private static final String MANIFEST = """
			tiers:
			  low:
			    priority: 1
			    routes:
			      - { path: "/api/media/**", method: GET, fallback: static, static_response: { "kind": "any" } }
			      - { path: "/api/media/{id}", method: GET, fallback: static, static_response: { "kind": "id" } }
			      - { path: /api/media/live, method: GET, fallback: static, static_response: { "kind": "live" } }
			      - { path: /api/media/live, method: HEAD, fallback: drop }
			      - { path: "/api/items/{id}", method: DELETE, fallback: drop }
			  high:
			    priority: 2
			    routes:
			      - { path: /api/feed, method: GET, fallback: drop }
			""";

	private final RouteTable table = RouteTable
		.compile(ManifestLoader.standard().load("t.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8)));

	@Test
	void theMostSpecificMatchingPatternWins() {
		assertThat(pathOf("GET", "/api/media/live")).isEqualTo("/api/media/live");
		assertThat(pathOf("GET", "/api/media/42")).isEqualTo("/api/media/{id}");
		assertThat(pathOf("GET", "/api/media/42/chunks/7")).isEqualTo("/api/media/**");
	}

	@Test
	void aRouteMatchesOnlyItsMethod() {
		assertThat(this.table.find("POST", PathContainer.parsePath("/api/feed"))).isNull();
		assertThat(pathOf("DELETE", "/api/items/3")).isEqualTo("/api/items/{id}");
		assertThat(this.table.find("GET", PathContainer.parsePath("/api/items/3"))).isNull();
	}

	@Test
	void methodsAreMatchedExactlyAsSent() {
		// HTTP methods are case-sensitive; a method no manifest can name matches nothing.
		assertThat(this.table.find("get", PathContainer.parsePath("/api/feed"))).isNull();
		assertThat(this.table.find("TRACE", PathContainer.parsePath("/api/feed"))).isNull();
		assertThat(this.table.find("PROPFIND", PathContainer.parsePath("/api/feed"))).isNull();
		assertThat(pathOf(new String("GET".toCharArray()), "/api/feed")).isEqualTo("/api/feed");
	}

	@Test
	void headMatchesGetRoutesAndPrefersAnExplicitHeadRoute() {
		assertThat(this.table.find("HEAD", PathContainer.parsePath("/api/feed")).route().method()).isEqualTo("GET");
		assertThat(this.table.find("HEAD", PathContainer.parsePath("/api/media/live")).route().method())
			.isEqualTo("HEAD");
		assertThat(pathOf("HEAD", "/api/media/42")).isEqualTo("/api/media/{id}");
	}

	@Test
	void aPathOutsideEveryPatternMatchesNothing() {
		assertThat(this.table.find("GET", PathContainer.parsePath("/api/other"))).isNull();
		assertThat(this.table.find("PATCH", PathContainer.parsePath("/api/feed"))).isNull();
	}

	@Test
	void compiledRoutesKnowTheirTierPriorityAndManifestIndex() {
		ShedRoute feed = this.table.find("GET", PathContainer.parsePath("/api/feed"));
		assertThat(feed.priority()).isEqualTo(2);
		assertThat(feed.index()).isEqualTo(5);
		assertThat(this.table.routes()).hasSize(6);
	}

	private String pathOf(String method, String path) {
		return this.table.find(method, PathContainer.parsePath(path)).route().path();
	}

}
