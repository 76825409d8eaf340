package dev.degradation.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.mock.web.MockHttpServletRequest;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.web.servlet.DegradationFilter;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RouteTable;
import dev.degradation.web.StaleAnswers;

/**
 * What keeping copies costs a live request: the filter for a live {@code GET} of a {@code stale}
 * route (the path is looked up, the answer is copied as it is written and stored) against the same
 * request of a {@code static} route (nothing shed: one volatile read and one header). The handler
 * writes a 200-byte JSON body.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StaleRouteBenchmark {

	private static final byte[] BODY = ("{\"items\":[" + "\"x\",".repeat(47) + "\"x\"]}")
		.getBytes(StandardCharsets.UTF_8);

	private static final FilterChain HANDLER = (request, response) -> {
		response.setContentType("application/json");
		response.getOutputStream().write(BODY);
	};

	@Param({ "static", "stale" })
	String fallback;

	private DegradationFilter filter;

	private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/items/42");

	private final NoOpResponse response = new NoOpResponse();

	@Setup
	public void setUp() {
		String route = this.fallback.equals("stale") ? "fallback: stale, max_stale_seconds: 60"
				: "fallback: static, static_response: { \"items\": [] }";
		DegradationManifest manifest = ManifestLoader.standard()
			.load("stale.yaml", ("tiers:\n  optional:\n    priority: 1\n    routes:\n"
					+ "      - { path: \"/api/items/{id}\", method: GET, " + route + " }\n")
				.getBytes(StandardCharsets.UTF_8));
		DegradationEngine engine = new DegradationEngine(manifest, Clock.systemUTC());
		StaleAnswers answers = new StaleAnswers(StaleAnswers.Limits.DEFAULT, Clock.systemUTC());
		this.filter = new DegradationFilter(new RequestDecider(engine, RouteTable.compile(manifest, answers),
				"/actuator", null, "x-envoy-expected-rq-timeout-ms", Duration.ofSeconds(30)), true);
	}

	@Benchmark
	public NoOpResponse liveRequest() throws IOException, ServletException {
		this.filter.doFilter(this.request, this.response, HANDLER);
		return this.response;
	}

}
