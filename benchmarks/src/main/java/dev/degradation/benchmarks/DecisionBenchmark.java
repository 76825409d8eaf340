package dev.degradation.benchmarks;

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
import dev.degradation.web.RouteTable;
import dev.degradation.web.ShedRoute;

/**
 * The per-request decision of the filter once something is shed: the route of (method, path), the
 * engine's state (one volatile read) and whether the route's tier is shed. The path is parsed
 * once in the setup, as Spring MVC parses it once per request for its own handler lookup.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DecisionBenchmark {

	@Param({ "10", "100", "1000", "10000" })
	int routes;

	@Param({ "literal", "pattern" })
	String kind;

	@Param({ "hit", "miss" })
	String request;

	private RouteTable table;

	private DegradationEngine engine;

	private PathContainer path;

	private final String method = "GET";

	@Setup
	public void setUp() {
		DegradationManifest manifest = Manifests.load(this.kind, this.routes);
		this.table = RouteTable.compile(manifest);
		this.engine = new DegradationEngine(manifest, Clock.systemUTC());
		// Everything is shed, so that a hit goes all the way to "answer with the fallback".
		this.engine.simulate(manifest.maxPriority());
		this.path = PathContainer
			.parsePath(this.request.equals("hit") ? Manifests.hit(this.kind, this.routes) : Manifests.MISS);
		ShedRoute found = decision();
		if ((found != null) != this.request.equals("hit")) {
			throw new IllegalStateException("Expected a " + this.request + " for " + this.path.value());
		}
	}

	@Benchmark
	public @Nullable ShedRoute decision() {
		DegradationState state = this.engine.state();
		ShedRoute route = this.table.find(this.method, this.path);
		return (route != null && state.shedCause(route.index()) != null) ? route : null;
	}

}
