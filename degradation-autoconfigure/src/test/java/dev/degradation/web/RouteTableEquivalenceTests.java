package dev.degradation.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The indexed lookup of {@link RouteTable} finds, for every path, the route that a scan of every
 * pattern in specificity order finds ({@link LinearRouteScan}): over thousands of generated
 * patterns and paths built from a small alphabet, so that patterns overlap, share literal starts,
 * and meet encoded, parameterized, empty and trailing segments.
 */
class RouteTableEquivalenceTests {

	private static final String[] METHODS = { "GET", "HEAD", "POST" };

	// "Aa" and "BB" share a hash code; "o" and "_" fall into the last slot of a child table, so
	// that lookups meet equal hashes of different strings and probes that wrap around.
	private static final String[] LITERALS = { "a", "b", "ab", "c", "a.b", "Aa", "o", "_", "a:b" };

	private static final String[] NON_LITERALS = { "{v}", "{v:[ab]+}", "*", "a*", "?b", "a{v}", "%61", "a;b", "*.b",
			"{v-x}" };

	private static final String[] LAST_ONLY = { "**", "{*v}", "{*v-x}" };

	private static final String[] PATH_SEGMENTS = { "a", "b", "ab", "c", "a.b", "aa", "%61", "a;p=1", "b;x", "%2F",
			"a%20b", "", ";q", "bb", "BB", "Aa", "o", "_", "a:b", "A", "%41", "*", "%2A", "a%3Bb" };

	@Test
	void theIndexFindsTheRouteThatALinearScanFinds() {
		Random random = new Random(20261129L);
		int manifests = 0;
		int lookups = 0;
		int matches = 0;
		while (manifests < 300) {
			DegradationManifest manifest = manifest(random, 1 + random.nextInt(60));
			RouteTable table = RouteTable.compile(manifest);
			LinearRouteScan oracle = new LinearRouteScan(table.routes());
			for (int p = 0; p < 200; p++) {
				PathContainer path = PathContainer.parsePath(path(random));
				for (String method : METHODS) {
					ShedRoute expected = oracle.find(method, path);
					assertThat(table.find(method, path)).as("%s %s in %s", method, path.value(), table.routes())
						.isSameAs(expected);
					lookups++;
					matches += (expected != null) ? 1 : 0;
				}
			}
			manifests++;
		}
		// The alphabet is small on purpose: a good share of the lookups must find a route.
		assertThat(matches).isGreaterThan(lookups / 10);
	}

	@Test
	void theLiteralStartEndsBeforeTheFirstSegmentThatIsNotAPlainLiteral() {
		assertThat(literalStart("/api/media/live")).isEqualTo("/api/media/live");
		assertThat(literalStart("/api/media/{id}")).isEqualTo("/api/media");
		assertThat(literalStart("/api/media/**")).isEqualTo("/api/media");
		assertThat(literalStart("/api/media/x{id}/y")).isEqualTo("/api/media");
		assertThat(literalStart("/api/a%20b/c")).isEqualTo("/api");
		assertThat(literalStart("/api/a;b/c")).isEqualTo("/api");
		assertThat(literalStart("/api/?/c")).isEqualTo("/api");
		assertThat(literalStart("/{tenant}/api")).isEmpty();
		assertThat(literalStart("/")).isEqualTo("/");
		assertThat(literalStart("/api//x/")).isEqualTo("/api//x/");
	}

	/**
	 * Each generated pattern alone, so that no better-ranked route can hide a wrong answer of the
	 * tail or of the walk for it.
	 */
	@Test
	void eachPatternAloneMatchesWhatPathPatternMatches() {
		Random random = new Random(20261130L);
		int tails = 0;
		int patterns = 0;
		int matches = 0;
		while (patterns < 3000) {
			String pattern = pattern(random);
			if (!parses(pattern)) {
				continue;
			}
			patterns++;
			tails += (RouteIndex.Tail.of(pattern.substring(RouteIndex.literalEnd(pattern))) != null) ? 1 : 0;
			ShedRoute route = RouteTable.compile(manifest(List.of(pattern))).routes().get(0);
			RouteIndex index = RouteIndex.of(new ShedRoute[] { route });
			for (int p = 0; p < 40; p++) {
				PathContainer path = PathContainer.parsePath(path(random));
				boolean expected = route.pattern().matches(path);
				assertThat(index.find(path) != null).as("%s on %s", pattern, path.value()).isEqualTo(expected);
				matches += expected ? 1 : 0;
			}
		}
		// Most generated patterns take the tail, and enough paths match to mean something.
		assertThat(tails).isGreaterThan(patterns / 2);
		assertThat(matches).isGreaterThan(patterns * 40 / 50);
	}

	@Test
	void theCommonShapesAreMatchedWithoutPathPattern() {
		assertThat(RouteIndex.Tail.of("")).isNotNull();
		assertThat(RouteIndex.Tail.of("/{id}")).isNotNull();
		assertThat(RouteIndex.Tail.of("/{id}/items/*")).isNotNull();
		assertThat(RouteIndex.Tail.of("/**")).isNotNull();
		assertThat(RouteIndex.Tail.of("/{tenant}/exports/{*rest}")).isNotNull();
		assertThat(RouteIndex.Tail.of("/{id:\\d+}")).isNull();
		assertThat(RouteIndex.Tail.of("/a*")).isNull();
		assertThat(RouteIndex.Tail.of("/?b")).isNull();
		assertThat(RouteIndex.Tail.of("/x{id}")).isNull();
		assertThat(RouteIndex.Tail.of("/**/a")).isNull();
		assertThat(RouteIndex.Tail.of("/{id}/a%20b")).isNull();
		assertThat(RouteIndex.Tail.of("/{id}/a;b")).isNull();
		assertThat(RouteIndex.Tail.of("*")).isNull();
	}

	private static String literalStart(String pattern) {
		return RouteIndex.literalStart(pattern).stream().map(PathContainer.Element::value).collect(Collectors.joining());
	}

	private static DegradationManifest manifest(List<String> patterns) {
		StringBuilder yaml = new StringBuilder("tiers:\n  t0:\n    priority: 1\n    routes:\n");
		for (String pattern : patterns) {
			yaml.append("      - { path: \"").append(pattern).append("\", method: GET, fallback: drop }\n");
		}
		return ManifestLoader.standard().load("generated.yaml", yaml.toString().getBytes(StandardCharsets.UTF_8));
	}

	private static DegradationManifest manifest(Random random, int routes) {
		Set<String> seen = new LinkedHashSet<>();
		List<String> lines = new ArrayList<>();
		while (lines.size() < routes) {
			String method = METHODS[random.nextInt(METHODS.length)];
			String pattern = pattern(random);
			// Variable names do not make routes different: the loader refuses such duplicates.
			String key = method + " " + pattern.replaceAll("\\{(\\*?)v\\d+(-x)?", "{$1v");
			if (!parses(pattern) || !seen.add(key)) {
				continue;
			}
			lines.add("      - { path: \"" + pattern + "\", method: " + method + ", fallback: drop }\n");
		}
		StringBuilder yaml = new StringBuilder("tiers:\n");
		int tiers = Math.min(2, lines.size());
		for (int tier = 0; tier < tiers; tier++) {
			yaml.append("  t").append(tier).append(":\n    priority: ").append(tier + 1).append("\n    routes:\n");
			for (int i = tier; i < lines.size(); i += tiers) {
				yaml.append(lines.get(i));
			}
		}
		return ManifestLoader.standard().load("generated.yaml", yaml.toString().getBytes(StandardCharsets.UTF_8));
	}

	private static String pattern(Random random) {
		int segments = random.nextInt(5);
		StringBuilder pattern = new StringBuilder();
		for (int i = 0; i < segments; i++) {
			pattern.append('/');
			if (random.nextInt(12) == 0) {
				pattern.append('/');
			}
			int pick = random.nextInt(10);
			if (i == segments - 1 && pick == 0) {
				pattern.append(LAST_ONLY[random.nextInt(LAST_ONLY.length)].replace("v", "v" + i));
			}
			else if (pick < 6) {
				pattern.append(LITERALS[random.nextInt(LITERALS.length)]);
			}
			else {
				pattern.append(NON_LITERALS[random.nextInt(NON_LITERALS.length)].replace("{v", "{v" + i));
			}
		}
		if (pattern.isEmpty() || random.nextInt(10) == 0) {
			pattern.append('/');
		}
		return pattern.toString();
	}

	private static boolean parses(String pattern) {
		try {
			PathPatternParser.defaultInstance.parse(pattern);
			return true;
		}
		catch (PatternParseException ex) {
			return false;
		}
	}

	private static String path(Random random) {
		int segments = random.nextInt(6);
		StringBuilder path = new StringBuilder();
		for (int i = 0; i < segments; i++) {
			path.append('/').append(PATH_SEGMENTS[random.nextInt(PATH_SEGMENTS.length)]);
		}
		if (path.isEmpty() ? random.nextInt(4) != 0 : random.nextInt(6) == 0) {
			path.append('/');
		}
		return path.toString();
	}

}
