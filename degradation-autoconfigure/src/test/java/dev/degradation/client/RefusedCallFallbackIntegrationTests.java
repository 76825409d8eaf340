package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import jakarta.servlet.Filter;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A request whose handler fails because a guarded call to a dependency its route requires got no
 * answer is answered with the route's fallback, marked, on a real server against a dependency on
 * loopback that never answers: the application writes no handling of its own, and the engine has
 * shed nothing. Only a refusal of a required dependency, and only one the application did not
 * handle itself, turns into the fallback.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:client/refused-manifest.yaml",
				"degradation.probes.enabled=false" })
class RefusedCallFallbackIntegrationTests {

	private static final LoopbackStub stub = LoopbackStub.start();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	DependencyGuards guards;

	@DynamicPropertySource
	static void stubUrl(DynamicPropertyRegistry registry) {
		registry.add("stub.url", stub::url);
	}

	@AfterAll
	static void stopStub() {
		stub.close();
	}

	@BeforeEach
	void hang() {
		stub.answer(200, null);
		stub.hang = true;
	}

	@AfterEach
	void answerAgain() {
		stub.hang = false;
	}

	@Test
	void aCallThatGotNoAnswerWithinItsTimeLimitIsAnsweredWithTheRoutesFallback() throws Exception {
		long started = System.nanoTime();
		HttpResponse<String> response = get("/api/requires-it");
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:hanging");
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/json"));
		assertThat(response.body()).isEqualTo("{\"source\":\"degraded\"}");
		// The 300 ms time limit less its reserve for the answer, and no more work than the
		// fallback's.
		assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(294)).isLessThan(Duration.ofMillis(300 + 500));
		// The engine shed nothing: this answer is the filter's, for this one request.
		assertThat(this.engine.state().shedsAnything()).isFalse();
		// Counted as a dependency's fallback of its route, the manifest's first: just after the answer,
		// which is on its way once its last byte is written (its length is set).
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.engine.state().fallbackCounts().count(0, "dependency") > 0);
	}

	@Test
	void aCallThatTimesOutKeepsAReserveOfItsTimeForTheCallersAnswer() {
		// 2 % of the 300 ms, so that the fallback written after it still fits in the 300 ms.
		assertThatExceptionOfType(DependencyUnavailableException.class)
			.isThrownBy(() -> this.guards.call("hanging", () -> {
				// Never answers: the guard's time limit ends it.
				new CountDownLatch(1).await();
				return "late";
			}))
			// 294 ms, less the moments spent before the attempt started.
			.withMessageMatching(".*no answer within 2(8\\d|9[0-4]) ms");
		assertThat(CallTime.answerReserve(Duration.ofSeconds(2))).isEqualTo(Duration.ofMillis(20));
		assertThat(CallTime.answerReserve(Duration.ofMinutes(1))).isEqualTo(Duration.ofMillis(20));
	}

	@Test
	void whatTheFailedHandlerBeganOfItsAnswerIsNotPartOfTheFallback() throws Exception {
		HttpResponse<String> response = get("/api/writes-then-fails");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"source\":\"degraded\"}");
		assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
		// Its cookie, its redirect, its validators and its own headers describe work that did not
		// happen; the session the container made for the request is kept, and so is what the
		// filters before the handler set.
		assertThat(response.headers().allValues("Set-Cookie")).noneMatch((cookie) -> cookie.startsWith("cart="))
			.anyMatch((cookie) -> cookie.startsWith("JSESSIONID="));
		assertThat(response.headers().map()).doesNotContainKeys("location", "etag", "retry-after", "vary",
				"x-degraded-parts", "content-language");
		assertThat(response.headers().firstValue("X-Before-Handler")).hasValue("kept");
	}

	@Test
	void aStaleRouteWhoseCallGotNoAnswerServesItsLastGoodAnswer() throws Exception {
		stub.hang = false;
		HttpResponse<String> live = get("/api/last-good");
		assertThat(live.statusCode()).isEqualTo(200);
		assertThat(live.headers().firstValue("X-Degraded")).isEmpty();
		stub.hang = true;
		HttpResponse<String> stale = get("/api/last-good");
		assertThat(stale.statusCode()).isEqualTo(200);
		assertThat(stale.body()).isEqualTo(live.body());
		assertThat(stale.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(stale.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:hanging");
		assertThat(stale.headers().firstValue("Age")).isPresent();
	}

	@Test
	void aBugInTheCodeThatMadeTheCallIsTheApplicationsErrorNotAFallback() throws Exception {
		HttpResponse<String> response = get("/api/bug");
		assertThat(response.statusCode()).isEqualTo(500);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
	}

	@Test
	void aRefusalTheApplicationHandlesItselfIsItsOwnAnswer() throws Exception {
		HttpResponse<String> response = get("/api/handles-it");
		assertThat(response.statusCode()).isEqualTo(HttpStatus.I_AM_A_TEAPOT.value());
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(response.body()).isEqualTo("own answer: TIMEOUT");
	}

	@Test
	void aRefusalOfADependencyTheRouteDoesNotRequireIsTheApplicationsError() throws Exception {
		HttpResponse<String> response = get("/api/requires-another");
		assertThat(response.statusCode()).isEqualTo(500);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
	}

	@Test
	void aRefusalOnARouteOutsideTheManifestIsTheApplicationsError() throws Exception {
		HttpResponse<String> response = get("/api/core");
		assertThat(response.statusCode()).isEqualTo(500);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	@UnsecuredTestConfiguration
	static class RefusedCallApplication {

		@Bean
		HangingController hangingController(RestClient.Builder builder, Environment env, DependencyGuards guards) {
			return new HangingController(builder.baseUrl(env.getRequiredProperty("stub.url")).build(), guards);
		}

		@Bean
		FilterRegistrationBean<Filter> beforeHandler() {
			// A filter ahead of the starter's, as CORS or tracing are.
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(
					(request, response, chain) -> {
						((HttpServletResponse) response).setHeader("X-Before-Handler", "kept");
						chain.doFilter(request, response);
					});
			registration.setOrder(-1000);
			return registration;
		}

		@Bean
		HandlingController handlingController(RestClient.Builder builder, Environment env) {
			return new HandlingController(builder.baseUrl(env.getRequiredProperty("stub.url")).build());
		}

	}

	@RestController
	static class HangingController {

		private final RestClient client;

		private final DependencyGuards guards;

		HangingController(RestClient client, DependencyGuards guards) {
			this.client = client;
			this.guards = guards;
		}

		@GetMapping("/api/writes-then-fails")
		void writesThenFails(HttpServletRequest request,
				HttpServletResponse response) throws IOException {
			request.getSession(true);
			response.addCookie(new Cookie("cart", "42"));
			response.setHeader("Location", "/orders/42");
			response.setHeader("ETag", "\"42\"");
			response.setHeader("Retry-After", "3600");
			response.setHeader("Vary", "Accept-Language");
			response.setHeader("X-Degraded-Parts", "reviews");
			response.setHeader("Content-Language", "fr");
			response.setContentType("text/plain");
			// A view that renders through the writer and calls the dependency on its way.
			response.getWriter().write("Your order: ");
			this.client.get().uri("/hanging").retrieve().body(String.class);
		}

		@GetMapping("/api/bug")
		String bug() {
			return this.guards.call("hanging", () -> {
				throw new NullPointerException("a bug of the application's");
			});
		}

		@GetMapping("/api/last-good")
		String lastGood() {
			return this.client.get().uri("/hanging/last-good").retrieve().body(String.class);
		}

		@GetMapping({ "/api/requires-it", "/api/requires-another", "/api/core" })
		Map<String, String> requiresIt() {
			return Map.of("source", this.client.get().uri("/hanging").retrieve().body(String.class));
		}

	}

	@RestController
	static class HandlingController {

		private final RestClient client;

		HandlingController(RestClient client) {
			this.client = client;
		}

		@GetMapping("/api/handles-it")
		Map<String, String> handlesIt() {
			return Map.of("source", this.client.get().uri("/hanging/handled").retrieve().body(String.class));
		}

		@ExceptionHandler
		ResponseEntity<String> ownAnswer(DependencyUnavailableException ex) {
			return ResponseEntity.status(HttpStatus.I_AM_A_TEAPOT).body("own answer: " + ex.reason());
		}

	}

}
