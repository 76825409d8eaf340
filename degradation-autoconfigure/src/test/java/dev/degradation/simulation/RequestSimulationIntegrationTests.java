package dev.degradation.simulation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.client.DependencyGuards;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.monitor.DependencyState;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request's own simulation across a call graph, on real servers of one web stack: a caller and a
 * callee with the starter and the same token, the caller calling the callee through a Boot-built
 * guarded client. A request with {@code level=2} or {@code failed=...} and the token gets the
 * declared fallbacks at the caller and at the callee, while requests without the headers, sent at
 * the same moment, get live answers at both and nothing moves: levels, dependency states, breakers.
 * With the feature off, or a wrong token, the same headers change nothing and the callee never
 * receives them; an unauthenticated request with them is refused by Spring Security, never
 * answered with a fallback.
 */
abstract class RequestSimulationIntegrationTests {

	static final String TOKEN = "a-token-of-at-least-16-characters";

	private static final List<ConfigurableApplicationContext> started = new CopyOnWriteArrayList<>();

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final String stack;

	private final ConfigurableApplicationContext callee;

	private final ConfigurableApplicationContext caller;

	private final ConfigurableApplicationContext callerOff;

	private final ConfigurableApplicationContext securedCallee;

	RequestSimulationIntegrationTests(String stack, Class<?> callerApplication,
			ContextsOf contexts) {
		this.stack = stack;
		if (contexts.callee == null) {
			contexts.callee = start(Callee.class, "simulation-callee.yaml", true);
			String calleeUrl = "--callee.url=" + url(contexts.callee);
			contexts.caller = start(callerApplication, "simulation-caller.yaml", true, calleeUrl);
			contexts.callerOff = start(callerApplication, "simulation-caller.yaml", false, calleeUrl);
			contexts.securedCallee = start(SecuredCallee.class, "simulation-callee.yaml", true,
					"--spring.security.user.name=user", "--spring.security.user.password=secret");
		}
		this.securedCallee = contexts.securedCallee;
		this.callee = contexts.callee;
		this.caller = contexts.caller;
		this.callerOff = contexts.callerOff;
	}

	/** The three services of one stack, started once for the test class. */
	static final class ContextsOf {

		@Nullable ConfigurableApplicationContext callee;

		@Nullable ConfigurableApplicationContext caller;

		@Nullable ConfigurableApplicationContext callerOff;

		@Nullable ConfigurableApplicationContext securedCallee;

	}

	private ConfigurableApplicationContext start(Class<?> application, String manifest, boolean enabled,
			String... more) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
				"--spring.main.web-application-type=" + this.stack, "--degradation.manifest=classpath:manifests/" + manifest,
				"--degradation.probes.enabled=false", "--degradation.simulation.requests.enabled=" + enabled,
				"--degradation.simulation.requests.token=" + TOKEN,
				"--management.endpoints.web.exposure.include=degradation"));
		args.addAll(List.of(more));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
			.run(args.toArray(String[]::new));
		started.add(context);
		return context;
	}

	@AfterAll
	static void stop() {
		started.forEach(ConfigurableApplicationContext::close);
		started.clear();
	}

	@BeforeEach
	void nothingHeardYet() {
		this.callee.getBean(Callee.Heard.class).clear();
	}

	@Test
	void aRequestThatSimulatesALevelGetsTheDeclaredFallbacksAtTheCallerAndAtTheCallee() throws Exception {
		Answer extras = get(this.caller, "/api/extras", "level=2", TOKEN);
		assertThat(extras.body()).isEqualTo("{\"extras\":[],\"source\":\"degraded-at-caller\"}");
		assertThat(extras.reason()).isEqualTo(RequestSimulation.CAUSE);
		Answer page = get(this.caller, "/api/page", "level=2", TOKEN);
		assertThat(page.reason()).isNull();
		assertThat(page.body()).isEqualTo(
				"page with {\"items\":[],\"source\":\"degraded-at-callee\"} (simulation:request at the callee)");
		assertUntouched();
	}

	@Test
	void aRequestThatSimulatesTheCalleesDependencyFailedGetsTheCalleesFallback() throws Exception {
		Answer page = get(this.caller, "/api/page", "failed=inventory", TOKEN);
		assertThat(page.body()).isEqualTo(
				"page with {\"items\":[],\"source\":\"degraded-at-callee\"} (simulation:request at the callee)");
		assertThat(get(this.caller, "/api/extras", "failed=inventory", TOKEN).body())
			.as("the caller's route requires only the callee, which sheds its own")
			.isEqualTo("extras with {\"items\":[],\"source\":\"degraded-at-callee\"}");
		assertUntouched();
	}

	@Test
	void aRequestThatSimulatesTheCalleeFailedIsAnsweredAtTheCallerAndTheCalleeIsNeverCalled() throws Exception {
		long calls = this.callee.getBean(Callee.Heard.class).calls.sum();
		Answer extras = get(this.caller, "/api/extras", "failed=callee", TOKEN);
		assertThat(extras.body()).isEqualTo("{\"extras\":[],\"source\":\"degraded-at-caller\"}");
		assertThat(extras.reason()).isEqualTo(RequestSimulation.CAUSE);
		// A core route's guarded call fails at once, as a refused call would.
		assertThat(get(this.caller, "/api/page", "failed=callee", TOKEN).body())
			.isEqualTo("page without recommendations: SIMULATED");
		assertThat(this.callee.getBean(Callee.Heard.class).calls.sum()).isEqualTo(calls);
		assertUntouched();
		CircuitBreaker breaker = this.caller.getBean(DependencyGuards.class).guard("callee").circuitBreaker();
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
		assertThat(this.caller.getBean(MeterRegistry.class)
			.get("degradation.fallbacks")
			.tag("route", "/api/extras")
			.tag("cause", "simulation")
			.tag("scope", "request")
			.functionCounter()
			.count()).isPositive();
		assertThat(this.caller.getBean(MeterRegistry.class)
			.get("degradation.fallbacks")
			.tag("route", "/api/extras")
			.tag("cause", "simulation")
			.tag("scope", "instance")
			.functionCounter()
			.count()).isZero();
	}

	@Test
	void requestsWithoutTheHeadersSentAtTheSameMomentAreServedLiveAtBothServices() throws Exception {
		AtomicBoolean simulating = new AtomicBoolean(true);
		List<String> wrong = new CopyOnWriteArrayList<>();
		LongAdder live = new LongAdder();
		ExecutorService others = Executors.newFixedThreadPool(4);
		try {
			List<CompletableFuture<Void>> load = new ArrayList<>();
			for (int client = 0; client < 4; client++) {
				load.add(CompletableFuture.runAsync(() -> {
					int sent = 0;
					while (simulating.get() && sent++ < 500) {
						try {
							Answer extras = get(this.caller, "/api/extras", null, null);
							Answer page = get(this.caller, "/api/page", null, null);
							if (!extras.body().equals("extras with live recommendations")
									|| !page.body().equals("page with live recommendations") || extras.degraded()
									|| page.degraded()) {
								wrong.add(extras.body() + " / " + page.body());
							}
							live.increment();
						}
						catch (Exception ex) {
							wrong.add(ex.toString());
						}
					}
				}, others));
			}
			for (int i = 0; i < 30; i++) {
				String simulation = (i % 3 == 0) ? "level=2" : (i % 3 == 1) ? "failed=inventory" : "failed=callee";
				assertThat(get(this.caller, "/api/page", simulation, TOKEN).body()).doesNotContain("live");
				assertThat(get(this.caller, "/api/extras", simulation, TOKEN).body()).doesNotContain("live");
			}
			simulating.set(false);
			CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).get();
		}
		finally {
			simulating.set(false);
			others.shutdownNow();
		}
		assertThat(wrong).isEmpty();
		assertThat(live.sum()).isPositive();
		assertUntouched();
	}

	@Test
	void withTheFeatureOffOrAWrongTokenTheHeadersChangeNothingAndAreNotPassedOn() throws Exception {
		for (String[] request : new String[][] { { "off", TOKEN }, { "on", "not-the-token-at-all-but-long" },
				{ "on", TOKEN.substring(1) }, { "on", TOKEN + "x" }, { "on", null } }) {
			ConfigurableApplicationContext service = request[0].equals("off") ? this.callerOff : this.caller;
			Answer extras = get(service, "/api/extras", "level=2", request[1]);
			assertThat(extras.degraded()).as(String.join(" ", request[0], String.valueOf(request[1]))).isFalse();
			assertThat(extras.body()).isEqualTo("extras with live recommendations");
			assertThat(get(service, "/api/page", "failed=inventory", request[1]).body())
				.isEqualTo("page with live recommendations");
		}
		// Malformed values with the right token change nothing either.
		for (String malformed : new String[] { "level=", "level=x", "failed=", "failed=a,,b", "level=2;failed=x",
				"x".repeat(5000) }) {
			assertThat(get(this.caller, "/api/extras", malformed, TOKEN).degraded()).as(malformed).isFalse();
		}
		assertThat(this.callee.getBean(Callee.Heard.class).simulations).isEmpty();
		assertThat(this.callee.getBean(Callee.Heard.class).tokens).isEmpty();
		assertUntouched();
	}

	@Test
	void anUnauthenticatedRequestWithTheHeadersIsRefusedBySecurityNeverAnsweredWithAFallback() throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(this.securedCallee) + "/api/recommendations"))
			.header(RequestSimulation.HEADER, "level=2")
			.header(RequestSimulation.TOKEN_HEADER, TOKEN)
			.timeout(Duration.ofSeconds(10));
		HttpResponse<String> unauthenticated = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(unauthenticated.statusCode()).isEqualTo(401);
		assertThat(unauthenticated.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(unauthenticated.body()).doesNotContain("degraded");
		HttpResponse<String> authenticated = this.http.send(request
			.header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString("user:secret".getBytes()))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(authenticated.statusCode()).isEqualTo(200);
		assertThat(authenticated.headers().firstValue("X-Degradation-Reason")).hasValue(RequestSimulation.CAUSE);
	}

	/**
	 * Nothing moved at either service: the level is 0, no dependency has a state other than
	 * unknown, nothing is simulated for the instance.
	 */
	private void assertUntouched() {
		for (ConfigurableApplicationContext service : List.of(this.caller, this.callee)) {
			DegradationEngine engine = service.getBean(DegradationEngine.class);
			engine.evaluate();
			assertThat(engine.state().level()).isZero();
			assertThat(engine.state().simulation().enabled()).isFalse();
			assertThat(engine.state().shedsAnything()).isFalse();
			engine.manifest()
				.dependencies()
				.forEach((dependency) -> assertThat(engine.dependency(dependency.name()).state())
					.as(dependency.name())
					.isEqualTo(DependencyState.UNKNOWN));
		}
	}

	private Answer get(ConfigurableApplicationContext service, String path, @Nullable String simulation,
			@Nullable String token) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(service) + path))
			.timeout(Duration.ofSeconds(10));
		if (simulation != null) {
			request.header(RequestSimulation.HEADER, simulation);
		}
		if (token != null) {
			request.header(RequestSimulation.TOKEN_HEADER, token);
		}
		HttpResponse<String> response;
		try {
			response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (java.net.http.HttpTimeoutException ex) {
			throw new IllegalStateException("no answer from " + url(service) + path + " (" + simulation + ") at "
					+ java.time.Instant.now(), ex);
		}
		assertThat(response.statusCode()).as(path + " " + simulation).isEqualTo(200);
		return new Answer(response.body(), response.headers().firstValue("X-Degraded").isPresent(),
				response.headers().firstValue("X-Degradation-Reason").orElse(null));
	}

	static String url(ConfigurableApplicationContext context) {
		return "http://127.0.0.1:" + context.getEnvironment().getRequiredProperty("local.server.port");
	}

	record Answer(String body, boolean degraded, @Nullable String reason) {
	}

	/**
	 * The called service: answers its recommendations live, and records the simulation headers it
	 * received, whatever it did with them.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration" })
	@Import({ Callee.Heard.class, Callee.Routes.class })
	static class Callee {

		static class Heard {

			final List<String> simulations = new CopyOnWriteArrayList<>();

			final List<String> tokens = new CopyOnWriteArrayList<>();

			final LongAdder calls = new LongAdder();

			void clear() {
				this.simulations.clear();
				this.tokens.clear();
			}

		}

		@RestController
		static class Routes {

			private final Heard heard;

			Routes(Heard heard) {
				this.heard = heard;
			}

			@GetMapping("/api/recommendations")
			String recommendations(@RequestHeader(name = RequestSimulation.HEADER, required = false) @Nullable String simulation,
					@RequestHeader(name = RequestSimulation.TOKEN_HEADER, required = false) @Nullable String token) {
				this.heard.calls.increment();
				if (simulation != null) {
					this.heard.simulations.add(simulation);
				}
				if (token != null) {
					this.heard.tokens.add(token);
				}
				return "live recommendations";
			}

		}

	}

	/**
	 * The called service behind Spring Security (every request authenticated, HTTP Basic).
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import({ Callee.Heard.class, Callee.Routes.class })
	static class SecuredCallee {

	}

	/**
	 * What both callers answer: a core page and a route of theirs that requires the callee, each
	 * with what the callee answered.
	 */
	static String page(String recommendations, @Nullable String reason) {
		return "page with " + recommendations + ((reason != null) ? " (" + reason + " at the callee)" : "");
	}

	/**
	 * The calling service on Spring MVC: a Boot-built {@code RestClient}, guarded.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	@Import(ServletCaller.Routes.class)
	static class ServletCaller {

		@RestController
		static class Routes {

			private final RestClient callee;

			Routes(RestClient.Builder builder, Environment environment) {
				this.callee = builder.baseUrl(environment.getRequiredProperty("callee.url")).build();
			}

			@GetMapping("/api/page")
			String page() {
				try {
					var answer = this.callee.get().uri("/api/recommendations").retrieve().toEntity(String.class);
					return RequestSimulationIntegrationTests.page(String.valueOf(answer.getBody()),
							answer.getHeaders().getFirst("X-Degradation-Reason"));
				}
				catch (RuntimeException ex) {
					return "page without recommendations: " + reason(ex);
				}
			}

			@GetMapping("/api/extras")
			String extras() {
				return "extras with " + this.callee.get().uri("/api/recommendations").retrieve().body(String.class);
			}

		}

	}

	/**
	 * The calling service on WebFlux: a Boot-built {@code WebClient}, guarded.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration" })
	@Import(ReactiveCaller.Routes.class)
	static class ReactiveCaller {

		@RestController
		static class Routes {

			private final WebClient callee;

			Routes(WebClient.Builder builder, Environment environment) {
				this.callee = builder.baseUrl(environment.getRequiredProperty("callee.url")).build();
			}

			@GetMapping("/api/page")
			Mono<String> page() {
				return this.callee.get()
					.uri("/api/recommendations")
					.retrieve()
					.toEntity(String.class)
					.map((answer) -> RequestSimulationIntegrationTests.page(String.valueOf(answer.getBody()),
							answer.getHeaders().getFirst("X-Degradation-Reason")))
					.onErrorResume(RuntimeException.class,
							(ex) -> Mono.just("page without recommendations: " + reason(ex)));
			}

			@GetMapping("/api/extras")
			Mono<String> extras() {
				return this.callee.get()
					.uri("/api/recommendations")
					.retrieve()
					.bodyToMono(String.class)
					.map((recommendations) -> "extras with " + recommendations);
			}

		}

	}

	static String reason(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof dev.degradation.client.DependencyUnavailableException unavailable) {
				return unavailable.reason().name();
			}
		}
		return failure.toString();
	}

}
