package dev.degradation.test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.NestedTestConfiguration;
import org.springframework.test.context.NestedTestConfiguration.EnclosingConfiguration;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import dev.degradation.monitor.probing.DependencyProbing;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link AutoConfigureDegradation @AutoConfigureDegradation} gives a test, in a slice and in
 * a full context. This module's {@code application.properties} switches probes on and the route
 * check to strict, as an application's own configuration may: the annotation's defaults win over
 * it, and a test's own properties win over them.
 */
@NestedTestConfiguration(EnclosingConfiguration.OVERRIDE)
class AutoConfigureDegradationTests {

	@Nested
	@WebMvcTest(properties = ShopApplication.MANIFEST)
	@ContextConfiguration(classes = ShopApplication.class)
	@AutoConfigureDegradation
	class InAWebMvcTest {

		@Autowired
		MockMvcTester mvc;

		@Autowired
		DegradationEngine engine;

		@Autowired
		ApplicationContext context;

		@Test
		void mockMvcRunsTheDegradationFilterOfTheEngine() {
			this.engine.simulate(2);
			assertThat(this.mvc.get().uri("/api/recommendations")).hasStatusOk()
				.hasHeader("X-Degraded", "true")
				.hasHeader("X-Degradation-Tier", "enhanced")
				.hasHeader("X-Degradation-Level", "2")
				.bodyJson()
				.isLenientlyEqualTo("{\"items\": [], \"source\": \"degraded\"}");
			assertThat(this.mvc.get().uri("/api/products")).hasStatusOk().doesNotContainHeader("X-Degraded");
		}

		@Test
		void aTestsOwnRequestSimulatesForItselfAndTheEngineStaysAsItWas(@Autowired SimulatedRequests simulated) {
			assertThat(this.mvc.get().uri("/api/recommendations").headers(simulated.level(2))).hasStatusOk()
				.hasHeader("X-Degraded", "true")
				.hasHeader("X-Degradation-Reason", "simulation:request")
				.hasHeader("X-Degradation-Level", "0")
				.bodyJson()
				.isLenientlyEqualTo("{\"items\": [], \"source\": \"degraded\"}");
			assertThat(this.mvc.get().uri("/api/recommendations")).hasStatusOk().doesNotContainHeader("X-Degraded");
			assertThat(this.engine.state().level()).isZero();
			assertThat(this.engine.state().shedsAnything()).isFalse();
		}

		@Test
		void theDependenciesAreNotProbedAndStayUnknown() {
			assertThat(this.context.getBeanNamesForType(DependencyProbing.class)).isEmpty();
			assertThat(this.engine.dependency("recommendations-api").state()).isEqualTo(DependencyState.UNKNOWN);
		}

		@Test
		void theStartupRouteCheckIsOffDespiteTheApplicationsConfiguration() {
			assertThat(this.context.getEnvironment().getProperty("degradation.verify")).isEqualTo("off");
		}

	}

	@Nested
	@WebFluxTest(properties = ShopApplication.MANIFEST)
	@ContextConfiguration(classes = ShopApplication.class)
	@AutoConfigureDegradation
	class InAWebFluxTest {

		@Autowired
		WebTestClient client;

		@Autowired
		DegradationEngine engine;

		@Autowired
		ApplicationContext context;

		@Test
		void webTestClientRunsTheDegradationWebFilterOfTheEngine() {
			this.engine.simulate(2);
			this.client.get()
				.uri("/api/recommendations")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.valueEquals("X-Degraded", "true")
				.expectHeader()
				.valueEquals("X-Degradation-Tier", "enhanced")
				.expectHeader()
				.valueEquals("X-Degradation-Level", "2")
				.expectBody()
				.json("{\"items\": [], \"source\": \"degraded\"}");
			this.client.get()
				.uri("/api/products")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.doesNotExist("X-Degraded");
		}

		@Test
		void aRequestOfTheContractIsStoppedAtItsHandlersDoorAndTheHandlerNeverRuns() {
			// The handler would answer 201 with {"order":1}: the contract's answer names it instead.
			this.client.post()
				.uri("/api/orders")
				.header("X-Degradation-Contract", "true")
				.header("Content-Type", "application/json")
				.bodyValue("{}")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.valueEquals("X-Degradation-Contract-Handler", "ShopController%23order%28Map%29")
				.expectBody()
				.isEmpty();
		}

		@Test
		void aTestsOwnRequestSimulatesForItselfAndTheEngineStaysAsItWas(@Autowired SimulatedRequests simulated) {
			this.client.get()
				.uri("/api/recommendations")
				.headers((headers) -> headers.addAll(simulated.failed("recommendations-api")))
				.exchange()
				.expectHeader()
				.valueEquals("X-Degradation-Reason", "simulation:request")
				.expectBody()
				.json("{\"items\": [], \"source\": \"degraded\"}");
			this.client.get().uri("/api/recommendations").exchange().expectHeader().doesNotExist("X-Degraded");
			assertThat(this.engine.state().level()).isZero();
			assertThat(this.engine.state().shedsAnything()).isFalse();
		}

		@Test
		void theDependenciesAreNotProbedAndTheStartupRouteCheckIsOff() {
			assertThat(this.context.getBeanNamesForType(DependencyProbing.class)).isEmpty();
			assertThat(this.engine.dependency("recommendations-api").state()).isEqualTo(DependencyState.UNKNOWN);
			assertThat(this.context.getEnvironment().getProperty("degradation.verify")).isEqualTo("off");
		}

	}

	@Nested
	@WebMvcTest(properties = ShopApplication.MANIFEST)
	@ContextConfiguration(classes = ShopApplication.class)
	class InAWebMvcTestWithoutIt {

		@Autowired
		ApplicationContext context;

		@Test
		void thereIsNoEngineAndNoFilter() {
			assertThat(this.context.getBeanNamesForType(DegradationEngine.class)).isEmpty();
			assertThat(this.context.containsBean("degradationFilter")).isFalse();
		}

	}

	@Nested
	@SpringBootTest(classes = ShopApplication.class, properties = ShopApplication.MANIFEST)
	@AutoConfigureDegradation
	class InASpringBootTest {

		@Autowired
		DegradationEngine engine;

		@Autowired
		DegradationTestClock clock;

		@Autowired
		ApplicationContext context;

		@Test
		void theEngineJudgesTimeByTheTestClock() {
			assertThat(this.engine.clock()).isSameAs(this.clock);
		}

		@Test
		void theDependenciesAreNotProbed() {
			assertThat(this.context.getBeanNamesForType(DependencyProbing.class)).isEmpty();
		}

	}

	@Nested
	@SpringBootTest(classes = ShopApplication.class, properties = ShopApplication.MANIFEST)
	@AutoConfigureDegradation(probes = true)
	class WithProbes {

		@Autowired
		ApplicationContext context;

		@Test
		void theDependenciesAreProbed() {
			assertThat(this.context.getBeanNamesForType(DependencyProbing.class)).hasSize(1);
		}

	}

	@Nested
	@SpringBootTest(classes = ShopApplication.class, properties = { ShopApplication.MANIFEST,
			"degradation.probes.enabled=true", "degradation.verify=warn" })
	@AutoConfigureDegradation
	class WithTestPropertiesOfItsOwn {

		@Autowired
		ApplicationContext context;

		@Test
		void theTestsPropertiesWin() {
			Environment environment = this.context.getEnvironment();
			assertThat(this.context.getBeanNamesForType(DependencyProbing.class)).hasSize(1);
			assertThat(environment.getProperty("degradation.verify")).isEqualTo("warn");
		}

	}

	@Nested
	@SpringBootTest(classes = ShopApplication.class, properties = ShopApplication.MANIFEST)
	@Import(ApplicationClock.class)
	@AutoConfigureDegradation
	class WithAClockOfTheApplication {

		@Autowired
		DegradationEngine engine;

		@Autowired
		ApplicationContext context;

		@Test
		void theEngineJudgesTimeByTheApplicationsClockAndNoTestClockIsAdded() {
			assertThat(this.engine.clock().instant()).isEqualTo(ApplicationClock.NOW);
			assertThat(this.context.getBeanNamesForType(DegradationTestClock.class)).isEmpty();
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ApplicationClock {

		static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

		@Bean
		Clock clock() {
			return Clock.fixed(NOW, ZoneOffset.UTC);
		}

	}

}
