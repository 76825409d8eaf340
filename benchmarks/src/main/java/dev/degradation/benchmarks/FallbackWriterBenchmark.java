package dev.degradation.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
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

import org.springframework.http.server.PathContainer;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.web.Answer;
import dev.degradation.web.FallbackWriter;
import dev.degradation.web.RequestView;
import dev.degradation.web.RouteTable;

/**
 * Preparing a fallback answer for either web stack: the degraded headers, the status and, for
 * {@code static}, the body serialized when the manifest loaded ({@link Answer}); what a stack's
 * adapter then writes is its container's cost (the filter benchmarks measure it whole).
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

	private final RequestView request = new RequestView() {

		@Override
		public String method() {
			return "GET";
		}

		@Override
		public PathContainer pathWithinApplication() {
			return PathContainer.parsePath("/api/recommendations");
		}

		@Override
		public String rawPath() {
			return "/api/recommendations";
		}

		@Override
		public @Nullable String rawQuery() {
			return null;
		}

		@Override
		public @Nullable String header(String name) {
			return null;
		}

	};

	@Setup
	public void setUp() {
		DegradationManifest manifest = ManifestLoader.standard()
			.load("fallbacks.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));
		this.writer = RouteTable.compile(manifest).routes().get(this.fallback.equals("static") ? 0 : 1).writer();
		DegradationEngine engine = new DegradationEngine(manifest, Clock.systemUTC());
		this.state = engine.simulate(1);
	}

	@Benchmark
	public Answer answer() {
		return this.writer.answer(this.request, this.state, "simulation");
	}

}
