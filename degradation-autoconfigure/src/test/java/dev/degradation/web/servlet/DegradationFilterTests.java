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
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter's decision with a route that matches every path: the reserved (Actuator) base path
 * is never shed, whatever the manifest's patterns catch.
 */
class DegradationFilterTests {

	private final DegradationEngine engine = new DegradationEngine(ManifestLoader.standard()
		.load("m.yaml", "tiers: { all: { priority: 1, routes: [ { path: \"/**\", method: GET, fallback: drop } ] } }"
			.getBytes(StandardCharsets.UTF_8)), Clock.systemUTC());

	private final DegradationFilter filter = new DegradationFilter(new RequestDecider(this.engine,
			RouteTable.compile(this.engine.manifest()), "/actuator", null, "x-deadline", Duration.ofSeconds(30)), true);

	@Test
	void aRouteThatCatchesEveryPathNeverShedsTheActuator() throws Exception {
		this.engine.simulate(1);
		MockFilterChain chain = new MockFilterChain();
		MockHttpServletResponse response = new MockHttpServletResponse();
		this.filter.doFilter(new MockHttpServletRequest("GET", "/actuator/health"), response, chain);
		assertThat(chain.getRequest()).isNotNull();
		assertThat(response.getHeader(DegradationHeaders.DEGRADED)).isNull();
		assertThat(response.getHeader(DegradationHeaders.LEVEL)).isEqualTo("1");
	}

	@Test
	void aRouteThatCatchesEveryPathShedsEverythingElse() throws Exception {
		this.engine.simulate(1);
		MockFilterChain chain = new MockFilterChain();
		MockHttpServletResponse response = new MockHttpServletResponse();
		this.filter.doFilter(new MockHttpServletRequest("GET", "/api/anything"), response, chain);
		assertThat(chain.getRequest()).isNull();
		assertThat(response.getStatus()).isEqualTo(204);
		assertThat(response.getHeader(DegradationHeaders.DEGRADED)).isEqualTo("true");
	}

}
