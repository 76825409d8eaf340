package dev.degradation.web.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.testapp.CapacityTestApplication;
import dev.degradation.web.RequestDecider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cheap-answer turns on a real embedded Tomcat, under the {@code overload} section's
 * admission: while an admitted request is being served, a shed route's fallback is written only in
 * its turn; while none is, it goes out at once, turn or no turn. The test holds the only turn of
 * a gate it gives the filter (which the auto-configured filter then steps aside for, as Boot's
 * filters do for a user's filter of their type) and holds a core request in its handler: a filter
 * that no longer took turns under work would answer at once and never be seen waiting, and one
 * that took them with no work in flight would never answer while the test holds the turn.
 */
@SpringBootTest(classes = CapacityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/overload.yaml", "degradation.probes.enabled=false" })
@Import(CheapAnswerGateIntegrationTests.HeldGate.class)
class CheapAnswerGateIntegrationTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	OverloadSignal overload;

	@Autowired
	CheapAnswerGate gate;

	@Autowired
	HeldCheckout checkout;

	@AfterEach
	void stopSimulation() {
		this.checkout.release();
		this.engine.stopSimulation();
	}

	@Test
	void whileAnAdmittedRequestIsServedAFallbackIsWrittenInItsTurn() throws Exception {
		this.checkout.reset();
		this.engine.simulate(1);
		CompletableFuture<HttpResponse<String>> core = send("/api/held");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.overload.admission().inflight() == 1);
		assertThat(this.gate.enter(-1)).as("the test holds the only turn").isTrue();
		CompletableFuture<HttpResponse<String>> held;
		try {
			held = send("/api/recommendations");
			await().atMost(Duration.ofSeconds(10)).until(() -> this.gate.waiting() == 1);
			assertThat(held).as("no answer while its turn is held").isNotDone();
		}
		finally {
			this.gate.leave(System.nanoTime());
		}
		assertFallback(held.get(10, TimeUnit.SECONDS));
		this.checkout.release();
		HttpResponse<String> served = core.get(10, TimeUnit.SECONDS);
		assertThat(served.statusCode()).isEqualTo(200);
		assertThat(served.body()).isEqualTo("released");
		assertThat(this.gate.waiting()).isZero();
	}

	@Test
	void withNothingAdmittedInFlightAFallbackTakesNoTurn() throws Exception {
		this.engine.simulate(1);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.overload.admission().inflight() == 0);
		assertThat(this.gate.enter(-1)).as("the test holds the only turn").isTrue();
		try {
			// The first answer may still fall within the hold after an earlier test's live request.
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertFallback(send("/api/recommendations").get(5, TimeUnit.SECONDS)));
			assertFallback(send("/api/recommendations").get(5, TimeUnit.SECONDS));
			assertThat(this.gate.waiting()).isZero();
		}
		finally {
			this.gate.leave(System.nanoTime());
		}
	}

	private static void assertFallback(HttpResponse<String> answer) {
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(answer.headers().firstValue("X-Degraded")).hasValue("true");
	}

	private CompletableFuture<HttpResponse<String>> send(String path) {
		return this.client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * The filter with a gate of one turn, whose answers wait for it up to ten seconds, and a core
	 * route whose requests stay in their handler until the test lets them go.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class HeldGate {

		@Bean
		CheapAnswerGate cheapAnswerGate() {
			return new CheapAnswerGate(1, TimeUnit.SECONDS.toNanos(10));
		}

		@Bean
		FilterRegistrationBean<DegradationFilter> degradationFilter(RequestDecider decider, CheapAnswerGate gate) {
			FilterRegistrationBean<DegradationFilter> registration = new FilterRegistrationBean<>(
					new DegradationFilter(decider, true, gate));
			registration.setOrder(DegradationFilter.DEFAULT_ORDER);
			registration.setDispatcherTypes(DispatcherType.REQUEST);
			return registration;
		}

		@Bean
		HeldCheckout heldCheckout() {
			return new HeldCheckout();
		}

	}

	/**
	 * A core route (outside the manifest) whose requests wait in their handler for the test.
	 */
	@RestController
	static class HeldCheckout {

		private final Semaphore releases = new Semaphore(0);

		@GetMapping("/api/held")
		String held() throws InterruptedException {
			return this.releases.tryAcquire(20, TimeUnit.SECONDS) ? "released" : "timed out";
		}

		void release() {
			this.releases.release();
		}

		void reset() {
			this.releases.drainPermits();
		}

	}

}
