package dev.degradation.benchmarks;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.Filter;
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
import dev.degradation.web.servlet.DegradationFilter;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RouteTable;

/**
 * The whole filter for one request, against a filter that only passes the request on: what the
 * starter adds to a request in each case. The request is Spring's {@code MockHttpServletRequest}
 * (the path parsing at a shed level stores an attribute in it, as in a container); the response is
 * a {@link NoOpResponse}, so that the figures are the starter's own work, not a mock's header
 * table. The load test measures the same thing end to end, where a difference of a
 * few per cent is within the noise of the machine; this says how many nanoseconds it is.
 *
 * <p>Cases: {@code live} nothing is shed (level 0: one volatile read and one header);
 * {@code shed-miss} something is shed and the request matches no route (the path is parsed and
 * looked up); {@code shed-hit} the request's route is shed and answered with its fallback.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FilterBenchmark {

	private static final FilterChain END = (request, response) -> {
	};

	@Param({ "live", "shed-miss", "shed-hit" })
	String situation;

	private Filter degradation;

	private final Filter passThrough = (request, response, chain) -> chain.doFilter(request, response);

	private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/");

	private final NoOpResponse response = new NoOpResponse();

	@Setup
	public void setUp() {
		DegradationManifest manifest = Manifests.load("pattern", 100);
		DegradationEngine engine = new DegradationEngine(manifest, Clock.systemUTC());
		if (!this.situation.equals("live")) {
			engine.simulate(manifest.maxPriority());
		}
		this.degradation = new DegradationFilter(new RequestDecider(engine, RouteTable.compile(manifest), "/actuator",
				null, "x-envoy-expected-rq-timeout-ms", Duration.ofSeconds(30)), true);
		this.request.setRequestURI(this.situation.equals("shed-hit") ? Manifests.hit("pattern", 100) : Manifests.MISS);
	}

	@Benchmark
	public NoOpResponse degradationFilter() throws IOException, ServletException {
		this.degradation.doFilter(this.request, this.response, END);
		return this.response;
	}

	@Benchmark
	public NoOpResponse passThroughFilter() throws IOException, ServletException {
		this.passThrough.doFilter(this.request, this.response, END);
		return this.response;
	}

}
