package dev.degradation.web.servlet;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import dev.degradation.web.DegradationHeaders;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RouteTable;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter during a reload, step by step: a request always looks its route up in the table of
 * the manifest its state was derived from, so that route indices never mix two manifests.
 */
class DegradationFilterReloadTests {

	/** Route 0 is /a. */
	private static final String FIRST = """
			tiers:
			  one: { priority: 1, routes: [ { path: /a, method: GET, fallback: static, static_response: { "m": 1 } } ] }
			""";

	/** Route 0 is /b, route 1 is /a: an index of the first manifest means another route here. */
	private static final String SECOND = """
			tiers:
			  one: { priority: 1, routes: [ { path: /b, method: GET, fallback: static, static_response: { "m": 2 } } ] }
			  two: { priority: 2, routes: [ { path: /a, method: GET, fallback: static, static_response: { "m": 2 } } ] }
			""";

	private final DegradationManifest first = load(FIRST);

	private final DegradationManifest second = load(SECOND);

	private final DegradationEngine engine = new DegradationEngine(this.first, Clock.systemUTC());

	private final RequestDecider decider = new RequestDecider(this.engine, RouteTable.compile(this.first), null, null,
			"x-deadline", Duration.ofSeconds(30));

	private final DegradationFilter filter = new DegradationFilter(this.decider, true);

	@Test
	void aPreparedTableIsUsedOnlyOnceTheEngineHasTheNewManifest() throws Exception {
		this.engine.simulate(1);
		assertThat(answer("/a")).isEqualTo("{\"m\":1}");
		this.decider.prepare(RouteTable.compile(this.second));
		// The engine still has the first manifest: the first table answers.
		assertThat(answer("/a")).isEqualTo("{\"m\":1}");
		assertThat(answer("/b")).isEqualTo("live");
		this.engine.replace(this.second);
		// Level 1 sheds tier one of the second manifest: /b, and no longer /a (tier two).
		assertThat(answer("/b")).isEqualTo("{\"m\":2}");
		assertThat(answer("/a")).isEqualTo("live");
	}

	@Test
	void aStateWhoseTableIsUnknownShedsNothingRatherThanTheWrongRoute() throws Exception {
		this.engine.simulate(1);
		this.engine.replace(this.second);
		// Never prepared: the filter has no table for the engine's manifest, and must not read the
		// second manifest's route indices in the first manifest's table.
		assertThat(answer("/a")).isEqualTo("live");
		assertThat(answer("/b")).isEqualTo("live");
	}

	private String answer(String path) throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();
		MockFilterChain chain = new MockFilterChain();
		this.filter.doFilter(new MockHttpServletRequest("GET", path), response, chain);
		return (chain.getRequest() != null) ? "live" : response.getContentAsString();
	}

	private static DegradationManifest load(String yaml) {
		return ManifestLoader.standard().load("test.yaml", yaml.getBytes(StandardCharsets.UTF_8));
	}

}
