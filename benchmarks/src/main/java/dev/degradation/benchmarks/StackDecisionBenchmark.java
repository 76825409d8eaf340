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
import reactor.core.publisher.Mono;

import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.server.adapter.DefaultServerWebExchange;
import org.springframework.web.server.i18n.AcceptHeaderLocaleContextResolver;
import org.springframework.web.server.i18n.LocaleContextResolver;
import org.springframework.web.server.session.DefaultWebSessionManager;
import org.springframework.web.server.session.WebSessionManager;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.web.PreviousDegradationFilter;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RouteTable;
import dev.degradation.web.reactive.DegradationWebFilter;
import dev.degradation.web.servlet.DegradationFilter;

/**
 * What the move of the request decision out of the servlet filter costs, in one run: the servlet
 * filter as it was before (commit 68f38fc, {@link PreviousDegradationFilter}), the servlet
 * adapter of the shared decision now ({@link DegradationFilter}), and the reactive adapter
 * ({@link DegradationWebFilter}) for the same manifest and request. The ratios between them are
 * the figures; the absolute times depend on the machine of the moment.
 *
 * <p>Cases as in {@link FilterBenchmark}: {@code live} (nothing shed), {@code shed-miss}
 * (something shed, the request matches no route) and {@code shed-hit} (the route is shed and
 * answered). The servlet request is a {@code MockHttpServletRequest} into a {@link NoOpResponse};
 * the reactive exchange is a {@code DefaultServerWebExchange} of a mock request and response, built
 * anew for each request because an answered exchange is committed ({@link #reactiveExchangeOnly}
 * measures that building alone, to be subtracted).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StackDecisionBenchmark {

	private static final FilterChain END = (request, response) -> {
	};

	private static final WebFilterChain REACTIVE_END = (exchange) -> Mono.empty();

	@Param({ "live", "shed-miss", "shed-hit" })
	String situation;

	private Filter previous;

	private Filter servlet;

	private DegradationWebFilter reactive;

	private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/");

	private final NoOpResponse response = new NoOpResponse();

	private String path;

	private MockServerHttpRequest reactiveRequest;

	private final WebSessionManager sessions = new DefaultWebSessionManager();

	private final ServerCodecConfigurer codecs = ServerCodecConfigurer.create();

	private final LocaleContextResolver locales = new AcceptHeaderLocaleContextResolver();

	@Setup
	public void setUp() {
		DegradationManifest manifest = Manifests.load("pattern", 100);
		DegradationEngine engine = new DegradationEngine(manifest, Clock.systemUTC());
		if (!this.situation.equals("live")) {
			engine.simulate(manifest.maxPriority());
		}
		RouteTable routes = RouteTable.compile(manifest);
		this.previous = new PreviousDegradationFilter(engine, routes, "/actuator");
		RequestDecider decider = new RequestDecider(engine, routes, "/actuator", null,
				"x-envoy-expected-rq-timeout-ms", Duration.ofSeconds(30));
		this.servlet = new DegradationFilter(decider, true);
		this.reactive = new DegradationWebFilter(decider, true, DegradationWebFilter.DEFAULT_ORDER);
		this.path = this.situation.equals("shed-hit") ? Manifests.hit("pattern", 100) : Manifests.MISS;
		this.request.setRequestURI(this.path);
		this.reactiveRequest = MockServerHttpRequest.get(this.path).build();
	}

	@Benchmark
	public NoOpResponse previousServletFilter() throws IOException, ServletException {
		this.previous.doFilter(this.request, this.response, END);
		return this.response;
	}

	@Benchmark
	public NoOpResponse servletAdapter() throws IOException, ServletException {
		this.servlet.doFilter(this.request, this.response, END);
		return this.response;
	}

	@Benchmark
	public ServerWebExchange reactiveAdapter() {
		ServerWebExchange exchange = exchange();
		this.reactive.filter(exchange, REACTIVE_END).block();
		return exchange;
	}

	@Benchmark
	public ServerWebExchange reactiveExchangeOnly() {
		return exchange();
	}

	/**
	 * A new exchange of the same request: an answered exchange is committed. Its session manager,
	 * codecs and locale resolver are made once, as a server makes them once.
	 */
	private ServerWebExchange exchange() {
		return new DefaultServerWebExchange(this.reactiveRequest, new MockServerHttpResponse(), this.sessions,
				this.codecs, this.locales);
	}

}
