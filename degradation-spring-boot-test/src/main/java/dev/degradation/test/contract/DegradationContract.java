package dev.degradation.test.contract;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.http.server.PathContainer;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Suggestions;
import dev.degradation.manifest.Tier;
import dev.degradation.web.FallbackKinds;
import dev.degradation.web.HandlerRoute;
import dev.degradation.web.ManifestRouteCheck;
import dev.degradation.web.RouteTable;
import dev.degradation.web.ShedRoute;
import dev.degradation.web.StaleAnswers;

/**
 * The contract that an application's degradation manifest makes, as JUnit dynamic tests: for
 * every route, one test per level, and one test per handler that the manifest does not name.
 * <ul>
 * <li>A route is served by a handler of the application; one that no handler serves (a typo, a
 * removed endpoint) fails with its position in the manifest, as the startup check reports it.</li>
 * <li>At every level that sheds the route's tier, the answer is the route's declared fallback:
 * its status, its body, and the headers that mark a degraded answer
 * ({@code X-Degraded: true}, {@code X-Degradation-Tier}, {@code X-Degradation-Level},
 * {@code X-Degradation-Reason: simulation}, {@code Cache-Control: no-store}).</li>
 * <li>At every level below, the request reaches the handler that the application (Spring MVC or
 * WebFlux) sends it to, not degraded.</li>
 * <li>At the highest level, every handler that no route names (the application's core, and any
 * handler a broader route would catch) reaches its handler, not degraded.</li>
 * </ul>
 * The levels are 0 and each tier's priority: the levels at which what is shed changes. Each test
 * simulates its level through the application's {@link DegradationEngine} and puts the engine
 * back afterwards.
 *
 * <p>Requests go to the running server when the test has one
 * ({@code @SpringBootTest(webEnvironment = RANDOM_PORT)}), through every filter and servlet it
 * has; otherwise, on Spring MVC, through the test's {@link MockMvc} ({@code @WebMvcTest},
 * {@code @AutoConfigureMockMvc}), and on WebFlux through the test's {@link WebTestClient}
 * ({@code @WebFluxTest}, {@code @AutoConfigureWebTestClient}). Either way a request is stopped at
 * the door of its handler, which never runs (see {@link ContractHandlerInterceptor} and
 * {@link ContractWebFilter}), so the test class needs
 * {@link dev.degradation.test.AutoConfigureDegradation @AutoConfigureDegradation}. Path variables
 * and wildcards get sample values that the route's pattern and the application's request mappings
 * accept ({@code 1}, then {@code x}); give a route or a handler a request path of your own with
 * {@link Builder#samplePath(String, String)}.
 *
 * @see DegradationContractTests
 */
public final class DegradationContract {

	private static final PathPatternParser PARSER = PathPatternParser.defaultInstance;

	private static final Set<String> METHODS_WITH_BODY = Set.of("POST", "PUT", "PATCH");

	private static final String WEBFLUX_MAPPING_CLASS = "org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping";

	private final DegradationEngine engine;

	private final RouteTable routeTable;

	private final HandlerLookup lookup;

	private final ContractClient client;

	private final Map<String, String> samplePaths;

	private final Map<String, String> headers;

	private DegradationContract(DegradationEngine engine, RouteTable routeTable, HandlerLookup lookup,
			ContractClient client, Map<String, String> samplePaths, Map<String, String> headers) {
		this.engine = engine;
		this.routeTable = routeTable;
		this.lookup = lookup;
		this.client = client;
		this.samplePaths = Map.copyOf(samplePaths);
		this.headers = headers;
	}

	/**
	 * Start building the contract of the application whose context a test runs in.
	 * @param context the test's application context
	 * @return a builder
	 */
	public static Builder of(ApplicationContext context) {
		return new Builder(context);
	}

	/**
	 * Return the contract's tests: a container per route, in the manifest's shed order, then one
	 * for the handlers that the manifest does not name.
	 * @return the tests
	 * @throws IllegalArgumentException if a sample path names neither a route nor such a handler
	 */
	public Stream<DynamicNode> tests() {
		DegradationManifest manifest = this.engine.manifest();
		List<HandlerRoute> handlers = this.lookup.handlers();
		ManifestRouteCheck.Result check = ManifestRouteCheck.check(manifest, handlers);
		List<DeclaredRoute> routes = declaredRoutes(manifest);
		Map<String, List<String>> unnamed = handlersNotNamed(check, manifest.source());
		checkSampleKeys(routes, unnamed.keySet());
		List<Integer> levels = levels(manifest);
		List<DynamicNode> nodes = new ArrayList<>();
		for (DeclaredRoute route : routes) {
			nodes.add(routeTests(route, check, handlers, levels));
		}
		if (!unnamed.isEmpty()) {
			int highest = manifest.maxPriority();
			List<DynamicNode> tests = new ArrayList<>();
			URI manifestUri = DeclaredRoute.sourceUri(manifest.source(), "");
			unnamed.forEach((key, shadowing) -> tests.add(handlerTest(key, shadowing, highest, routes, manifestUri)));
			nodes.add(DynamicContainer.dynamicContainer("handlers not in the manifest, at level " + highest,
					tests.stream()));
		}
		return nodes.stream();
	}

	private DynamicContainer routeTests(DeclaredRoute declared, ManifestRouteCheck.Result check,
			List<HandlerRoute> handlers, List<Integer> levels) {
		Route route = declared.route();
		URI source = declared.sourceUri();
		String name = route + " (" + route.tier() + ")";
		// Each test's name stands alone: reports that flatten the tree (surefire's) still say which route.
		String served = route + " is served by a handler of the application";
		ManifestRouteCheck.UnmatchedRoute unmatched = check.unmatched()
			.stream()
			.filter((candidate) -> candidate.route().equals(route))
			.findFirst()
			.orElse(null);
		if (unmatched != null) {
			String problem = unmatched.problem(declared.source()).toString();
			return DynamicContainer.dynamicContainer(name, source,
					Stream.of(DynamicTest.dynamicTest(served, source, () -> failWith(problem))));
		}
		Sample sample = routeSample(declared, handlers);
		if (sample.request() == null) {
			String failure = sample.failure();
			return DynamicContainer.dynamicContainer(name, source,
					Stream.of(DynamicTest.dynamicTest(served, source, () -> failWith(failure))));
		}
		ContractRequest request = sample.request();
		String handler = sample.handler();
		List<DynamicNode> tests = new ArrayList<>();
		tests.add(DynamicTest.dynamicTest(route + " is served by " + handler, source, () -> {
			HandlerLookup.Found found = this.lookup.find(request);
			if (found.handler() == null || !found.handlerName().equals(handler)) {
				failWith("The application no longer sends " + request + " of " + declared.describe() + " to " + handler);
			}
		}));
		for (int level : levels) {
			boolean shed = declared.priority() <= level;
			String expectation = shed ? this.routeTable.kinds().promise(route) : "reaches the application";
			tests.add(DynamicTest.dynamicTest(route + " at level " + level + ": " + expectation, source, () -> {
				ContractAnswer answer = sendAt(level, request);
				if (shed) {
					ContractAssertions.fallback(this.routeTable.kinds(), declared, level, request, answer);
				}
				else {
					ContractAssertions.reached(request + " at level " + level + " should reach the application, as "
							+ declared.describe() + " is shed from level " + declared.priority() + " on", handler,
							answer, "");
				}
			}));
		}
		return DynamicContainer.dynamicContainer(name, source, tests.stream());
	}

	private DynamicTest handlerTest(String key, List<String> shadowing, int level, List<DeclaredRoute> routes,
			@Nullable URI manifestUri) {
		String method = key.substring(0, key.indexOf(' '));
		String pattern = key.substring(key.indexOf(' ') + 1);
		Sample sample = handlerSample(method, pattern);
		ContractRequest request = sample.request();
		String name = key + " is never degraded";
		if (request == null) {
			return DynamicTest.dynamicTest(name, manifestUri, () -> failWith(sample.failure()));
		}
		// The manifest as the source, not the handler's method: reports name a test with a method
		// source after that method, and the claim is the manifest's (it names no route for this).
		return DynamicTest.dynamicTest(name, manifestUri, () -> {
			ContractAnswer answer = sendAt(level, request);
			ContractAssertions.reached(key + " is not in the manifest and should never be degraded: at level " + level
					+ ", " + request + " should reach " + sample.handler(), sample.handler(), answer,
					caughtBy(request, routes, shadowing));
		});
	}

	/**
	 * Explain which route caught a request of a handler the manifest does not name.
	 */
	private String caughtBy(ContractRequest request, List<DeclaredRoute> routes, List<String> shadowing) {
		ShedRoute caught = this.routeTable.find(request.method(), PathContainer.parsePath(request.path()));
		StringBuilder explanation = new StringBuilder();
		if (caught != null && caught.index() < routes.size()) {
			explanation.append(": ").append(routes.get(caught.index()).describe()).append(", catches it");
		}
		shadowing.forEach((problem) -> explanation.append("\n  ").append(problem));
		return explanation.toString();
	}

	private ContractAnswer sendAt(int level, ContractRequest request) throws Exception {
		this.engine.reset();
		this.engine.simulate(level);
		try {
			return this.client.send(request);
		}
		finally {
			this.engine.reset();
		}
	}

	private Sample routeSample(DeclaredRoute declared, List<HandlerRoute> handlers) {
		Route route = declared.route();
		String key = route.toString();
		PathPattern pattern = PARSER.parse(route.path());
		String given = this.samplePaths.get(key);
		Set<String> candidates = new LinkedHashSet<>();
		if (given != null) {
			candidates.add(given);
		}
		else {
			candidates.addAll(ManifestRouteCheck.samplePaths(route.path()));
			// A route that names no handler's pattern (/api/catalog/**) is tried with the paths of
			// the handlers it covers.
			handlers.forEach((handler) -> candidates.addAll(ManifestRouteCheck.samplePaths(handler.pattern())));
		}
		List<String> refusals = new ArrayList<>();
		for (String candidate : candidates) {
			ContractRequest request = request(route.method(), candidate);
			PathContainer path = PathContainer.parsePath(request.path());
			if (!pattern.matches(path)) {
				if (given != null) {
					refusals.add(candidate + ": not a path of " + route.path());
				}
				continue;
			}
			ShedRoute found = this.routeTable.find(route.method(), path);
			if (found == null || found.index() != declared.index()) {
				refusals.add(candidate + ": the degradation filter takes it for "
						+ ((found != null) ? found.route().toString() : "no route"));
				continue;
			}
			HandlerLookup.Found handler = this.lookup.find(request);
			if (handler.handler() == null) {
				refusals.add(candidate + ": " + String.join("; ", handler.refusals()));
				continue;
			}
			return new Sample(request, handler.handlerName(), "");
		}
		return new Sample(null, "", "No sample request of " + declared.describe() + " reaches a handler of the "
				+ "application" + (refusals.isEmpty() ? "" : " (" + String.join(", ", refusals) + ")")
				+ "; give one with samplePath(\"" + key + "\", \"...\")");
	}

	private Sample handlerSample(String method, String pattern) {
		String key = method + " " + pattern;
		String given = this.samplePaths.get(key);
		List<String> candidates = (given != null) ? List.of(given) : ManifestRouteCheck.samplePaths(pattern);
		List<String> refusals = new ArrayList<>();
		for (String candidate : candidates) {
			ContractRequest request = request(method, candidate);
			HandlerLookup.Found found = this.lookup.find(request);
			if (found.handler() != null && pattern.equals(found.pattern())) {
				return new Sample(request, found.handlerName(), "");
			}
			refusals.add(candidate + ": " + ((found.handler() != null)
					? "the application sends it to " + found.handlerName() + " (" + found.pattern() + ")"
					: String.join("; ", found.refusals())));
		}
		return new Sample(null, "", "No sample request of " + key + " reaches its handler ("
				+ String.join(", ", refusals) + "); give one with samplePath(\"" + key + "\", \"...\")");
	}

	private ContractRequest request(String method, String target) {
		Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		headers.putAll(this.headers);
		headers.put(ContractHandlers.REQUEST_HEADER, "true");
		String body = null;
		if (METHODS_WITH_BODY.contains(method)) {
			// The handler never runs: the body only has to pass the mapping's content type conditions.
			headers.putIfAbsent("Content-Type", "application/json");
			body = "{}";
		}
		return new ContractRequest(method, target, headers, body);
	}

	/**
	 * The handlers that no route names, by method and pattern, sorted, each with the problems
	 * of the routes that would catch its requests.
	 */
	private static Map<String, List<String>> handlersNotNamed(ManifestRouteCheck.Result check, String source) {
		Map<String, List<String>> unnamed = new TreeMap<>(Comparator
			.comparing((String key) -> key.substring(key.indexOf(' ') + 1))
			.thenComparing((key) -> key.substring(0, key.indexOf(' '))));
		for (HandlerRoute handler : check.coreHandlers()) {
			keys(handler).forEach((key) -> unnamed.computeIfAbsent(key, (k) -> new ArrayList<>()));
		}
		for (ManifestRouteCheck.ShadowedHandler shadowed : check.shadowed()) {
			String problem = shadowed.problem(source).toString();
			keys(shadowed.handler()).forEach((key) -> {
				List<String> problems = unnamed.computeIfAbsent(key, (k) -> new ArrayList<>());
				if (key.startsWith(shadowed.route().method() + " ")) {
					problems.add(problem);
				}
			});
		}
		return unnamed;
	}

	private static Stream<String> keys(HandlerRoute handler) {
		Stream<String> methods = handler.methods().isEmpty() ? Stream.of("GET") : handler.methods().stream().sorted();
		return methods.map((method) -> method + " " + handler.pattern());
	}

	private void checkSampleKeys(List<DeclaredRoute> routes, Set<String> handlers) {
		Set<String> known = new LinkedHashSet<>();
		routes.forEach((route) -> known.add(route.route().toString()));
		known.addAll(handlers);
		for (String key : this.samplePaths.keySet()) {
			if (!known.contains(key)) {
				String closest = Suggestions.closest(key, known);
				String hint = (closest != null) ? "; did you mean \"" + closest + "\"?"
						: "; use 'METHOD pattern' as the manifest writes it, such as \"GET /api/products/{id}\"";
				throw new IllegalArgumentException("samplePath(\"" + key + "\", ...) names neither a route of the "
						+ "manifest nor a handler outside it" + hint);
			}
		}
	}

	private static List<DeclaredRoute> declaredRoutes(DegradationManifest manifest) {
		List<DeclaredRoute> routes = new ArrayList<>();
		for (Tier tier : manifest.tiers()) {
			for (int i = 0; i < tier.routes().size(); i++) {
				routes.add(new DeclaredRoute(tier.routes().get(i), routes.size(), tier.priority(),
						ManifestRouteCheck.yamlPath(tier, i), manifest.source()));
			}
		}
		return routes;
	}

	private static List<Integer> levels(DegradationManifest manifest) {
		return Stream.concat(Stream.of(0), manifest.tiers().stream().map(Tier::priority)).distinct().sorted().toList();
	}

	private static void failWith(String message) {
		throw new AssertionFailedError(message);
	}

	/**
	 * The request a route or a handler is tested with.
	 *
	 * @param request the request, or {@code null} when none reaches a handler
	 * @param handler the name of the handler it reaches
	 * @param failure why no request was found
	 */
	private record Sample(@Nullable ContractRequest request, String handler, String failure) {

	}

	/**
	 * Builds a {@link DegradationContract}.
	 */
	public static final class Builder {

		private final ApplicationContext context;

		private final Map<String, String> samplePaths = new LinkedHashMap<>();

		private final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

		private @Nullable ContractClient client;

		private Builder(ApplicationContext context) {
			this.context = context;
		}

		/**
		 * Test a route, or a handler that the manifest does not name, with a path of your own:
		 * where the sample values do not fit the pattern's variables, or the handler needs query
		 * parameters.
		 * @param route the route or handler, as the manifest writes it: its method, a space and
		 * its pattern, such as {@code GET /api/catalog/{id}/reviews}
		 * @param path the path to request within the application, with a query if needed, such
		 * as {@code /api/catalog/p-1/reviews?page=1}
		 * @return this builder
		 */
		public Builder samplePath(String route, String path) {
			Assert.isTrue(path.startsWith("/"), () -> "'path' must start with '/', but was '" + path + "'");
			this.samplePaths.put(route, path);
			return this;
		}

		/**
		 * Send a header with every request, such as the credentials that a security filter
		 * needs before it lets a request reach the degradation filter.
		 * @param name the header name
		 * @param value the value
		 * @return this builder
		 */
		public Builder header(String name, String value) {
			this.headers.put(name, value);
			return this;
		}

		/**
		 * Send the requests through this MockMvc instead of the test's server or MockMvc bean.
		 * @param mockMvc the MockMvc
		 * @return this builder
		 */
		public Builder mockMvc(MockMvc mockMvc) {
			this.client = new MockMvcContractClient(mockMvc);
			return this;
		}

		/**
		 * Send the requests through this WebTestClient instead of the test's server or
		 * WebTestClient bean (WebFlux).
		 * @param webTestClient the WebTestClient, bound to the test's application
		 * @return this builder
		 */
		public Builder webTestClient(WebTestClient webTestClient) {
			this.client = new WebTestClientContractClient(webTestClient);
			return this;
		}

		/**
		 * Send the requests over HTTP to this URL instead of the test's server or MockMvc. The
		 * server must run in the test's application context: a request of the contract is
		 * stopped by an interceptor that only the test adds.
		 * @param baseUrl the URL of the application, with its context path, such as
		 * {@code http://localhost:8080}
		 * @return this builder
		 */
		public Builder baseUrl(String baseUrl) {
			this.client = new HttpContractClient(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1)
					: baseUrl);
			return this;
		}

		/**
		 * Build the contract.
		 * @return the contract
		 * @throws IllegalStateException if the context has no degradation engine, no interceptor
		 * of the contract, or neither a running server nor MockMvc
		 */
		public DegradationContract build() {
			DegradationEngine engine = this.context.getBeanProvider(DegradationEngine.class).getIfUnique();
			if (engine == null) {
				throw new IllegalStateException("The degradation contract needs the application's DegradationEngine, "
						+ "but the test's context has none: is there a degradation manifest ('degradation.manifest'), "
						+ "and is this a web test?");
			}
			boolean webFlux = ClassUtils.isPresent(WEBFLUX_MAPPING_CLASS, this.context.getClassLoader())
					&& WebFluxHandlerLookup.serves(this.context);
			Class<?> stopper = webFlux ? ContractWebFilter.class : ContractHandlerInterceptor.class;
			if (this.context.getBeanProvider(stopper).getIfAvailable() == null) {
				throw new IllegalStateException("The degradation contract needs @AutoConfigureDegradation on the "
						+ "test class");
			}
			RouteTable routeTable = this.context.getBeanProvider(RouteTable.class)
				.getIfAvailable(() -> RouteTable.compile(engine.manifest(),
						new StaleAnswers(StaleAnswers.Limits.DEFAULT, engine.clock()),
						this.context.getBeanProvider(FallbackKinds.class).getIfAvailable(FallbackKinds::builtIn)));
			HandlerLookup lookup = webFlux ? WebFluxHandlerLookup.of(this.context) : MvcHandlerLookup.of(this.context);
			ContractClient client = (this.client != null) ? this.client : detectClient(webFlux);
			return new DegradationContract(engine, routeTable, lookup, client, this.samplePaths,
					Map.copyOf(this.headers));
		}

		private ContractClient detectClient(boolean webFlux) {
			Environment environment = this.context.getEnvironment();
			Integer port = environment.getProperty("local.server.port", Integer.class);
			if (port != null && port > 0) {
				String contextPath = environment.getProperty(webFlux ? "spring.webflux.base-path"
						: "server.servlet.context-path", "");
				if (contextPath.endsWith("/")) {
					contextPath = contextPath.substring(0, contextPath.length() - 1);
				}
				return new HttpContractClient("http://localhost:" + port + contextPath);
			}
			if (webFlux) {
				WebTestClient webTestClient = this.context.getBeanProvider(WebTestClient.class).getIfAvailable();
				if (webTestClient != null) {
					return new WebTestClientContractClient(webTestClient);
				}
				throw new IllegalStateException("The degradation contract needs a running server "
						+ "(@SpringBootTest(webEnvironment = RANDOM_PORT)) or a WebTestClient "
						+ "(@WebFluxTest, @AutoConfigureWebTestClient)");
			}
			MockMvc mockMvc = this.context.getBeanProvider(MockMvc.class).getIfAvailable();
			if (mockMvc != null) {
				return new MockMvcContractClient(mockMvc);
			}
			throw new IllegalStateException("The degradation contract needs a running server "
					+ "(@SpringBootTest(webEnvironment = RANDOM_PORT)) or MockMvc "
					+ "(@WebMvcTest, @AutoConfigureMockMvc)");
		}

	}

}
