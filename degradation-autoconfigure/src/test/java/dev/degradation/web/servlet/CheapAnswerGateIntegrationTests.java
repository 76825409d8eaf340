package dev.degradation.web.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
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

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.ShopTestApplication;
import dev.degradation.web.RequestDecider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cheap-answer turns on a real embedded Tomcat: a shed route's fallback is written only in
 * its turn. The test holds the only turn of a gate it gives the filter (which the auto-configured
 * filter then steps aside for, as Boot's filters do for a user's filter of their type), sees the
 * fallback wait for it, and lets it go; a filter that no longer took turns would answer at once
 * and never be seen waiting.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false" })
@Import(CheapAnswerGateIntegrationTests.HeldGate.class)
class CheapAnswerGateIntegrationTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	CheapAnswerGate gate;

	@AfterEach
	void stopSimulation() {
		this.engine.stopSimulation();
	}

	@Test
	void aFallbackIsWrittenInItsTurnAndAtOnceWhenTheTurnIsFree() throws Exception {
		this.engine.simulate(1);
		assertThat(this.gate.enter(-1)).as("the test holds the only turn").isTrue();
		CompletableFuture<HttpResponse<String>> held;
		try {
			held = send();
			await().atMost(Duration.ofSeconds(10)).until(() -> this.gate.waiting() == 1);
			assertThat(held).as("no answer while its turn is held").isNotDone();
		}
		finally {
			this.gate.leave();
		}
		HttpResponse<String> answer = held.get(10, TimeUnit.SECONDS);
		assertThat(answer.statusCode()).isEqualTo(204);
		assertThat(answer.headers().firstValue("X-Degraded")).hasValue("true");
		// With the turn free, the next one takes it and gives it back.
		assertThat(send().get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
		assertThat(this.gate.waiting()).isZero();
	}

	private CompletableFuture<HttpResponse<String>> send() {
		return this.client.sendAsync(HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/analytics/track"))
			.timeout(Duration.ofSeconds(10))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * The filter with a gate of one turn, whose answers wait for it up to ten seconds.
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

	}

}
