package dev.degradation.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

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
import org.springframework.mock.web.MockHttpServletResponse;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.web.FallbackWriter;
import dev.degradation.web.RouteTable;

/**
 * Writing a fallback answer: the four headers, the status and, for {@code static}, the body
 * serialized when the manifest loaded. Into a {@link NoOpResponse} (the writer's own cost) and
 * into Spring's {@link MockHttpServletResponse} (with a header table and a body buffer, as a
 * container has; the mock's own cost is included).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FallbackWriterBenchmark {

	private static final String MANIFEST = """
			tiers:
			  enhanced:
			    priority: 1
			    routes:
			      - path: /api/recommendations
			        method: GET
			        fallback: static
			        static_response: { "items": [], "source": "degraded" }
			      - path: /api/analytics/track
			        method: POST
			        fallback: drop
			""";

	@Param({ "static", "drop" })
	String fallback;

	private FallbackWriter writer;

	private DegradationState state;

	private final NoOpResponse noOp = new NoOpResponse();

	private final MockHttpServletResponse mock = new MockHttpServletResponse();

	private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/recommendations");

	@Setup
	public void setUp() {
		DegradationManifest manifest = ManifestLoader.standard()
			.load("fallbacks.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));
		this.writer = RouteTable.compile(manifest).routes().get(this.fallback.equals("static") ? 0 : 1).writer();
		DegradationEngine engine = new DegradationEngine(manifest, Clock.systemUTC());
		this.state = engine.simulate(1);
	}

	@Benchmark
	public NoOpResponse noOpResponse() throws IOException {
		this.writer.write(this.request, this.noOp, this.state, "simulation");
		return this.noOp;
	}

	@Benchmark
	public MockHttpServletResponse mockResponse() throws IOException {
		this.mock.reset();
		this.writer.write(this.request, this.mock, this.state, "simulation");
		return this.mock;
	}

}
