package dev.degradation.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Boot 4's HTTP service clients ({@code @ImportHttpServices} interfaces, their base URLs from
 * {@code spring.http.serviceclient.<group>.base-url}) on a real embedded server against a real
 * dependency on loopback: their {@code RestClient}s get the starter's
 * {@code RestClientCustomizer} too, so a call under a dependency's {@code base_url} is guarded
 * without a line of code: it carries the request's deadline, feeds the dependency's breaker,
 * and is refused at once while the breaker is open.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:client/service-client-manifest.yaml",
				"degradation.probes.enabled=false" })
class HttpServiceClientIntegrationTests {

	private static final LoopbackStub stub = LoopbackStub.start();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	InventoryService inventory;

	@Autowired
	DegradationEngine engine;

	@Autowired
	DependencyGuards guards;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("stub.url", stub::url);
		// The same URLs as the manifest's base_url: what makes the groups' calls guarded.
		registry.add("spring.http.serviceclient.catalog.base-url", () -> stub.url() + "/catalog");
		registry.add("spring.http.serviceclient.inventory.base-url", () -> stub.url() + "/inventory");
	}

	@AfterAll
	static void stopStub() {
		stub.close();
	}

	@Test
	void anHttpServiceClientsCallPassesTheRequestsDeadlineOn() throws Exception {
		stub.answer(200, null);
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/catalog"))
			.header("x-envoy-expected-rq-timeout-ms", "150")
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("live");
		// Set by the guard only: the interface declares no such header, and the deadline the
		// request arrived with (150 ms) is shorter than the call's own limit (1000 ms).
		assertThat(stub.requests).singleElement().satisfies((call) -> {
			assertThat(call.path()).isEqualTo("/catalog/items");
			assertThat(call.deadline()).isNotNull();
			assertThat(Long.parseLong(call.deadline())).isBetween(1L, 150L);
		});
	}

	@Test
	void anHttpServiceClientsFailingCallsOpenTheBreakerAndTheNextIsRefusedWithoutReachingTheDependency() {
		stub.answer(500, null);
		// The breaker judges from its fourth call: until then each failure is the client's own.
		for (int i = 0; i < 4; i++) {
			assertThatExceptionOfType(HttpServerErrorException.class).isThrownBy(this.inventory::stock);
		}
		assertThat(stub.requests).hasSize(4);
		assertThat(this.guards.guard("inventory").circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(this.engine.dependency("inventory").state()).isEqualTo(DependencyState.FAILED);
		assertThatExceptionOfType(DependencyUnavailableException.class).isThrownBy(this.inventory::stock)
			.satisfies((ex) -> {
				assertThat(ex.dependency()).isEqualTo("inventory");
				assertThat(ex.reason()).isEqualTo(DependencyUnavailableException.Reason.BREAKER_OPEN);
			});
		assertThat(stub.requests).hasSize(4);
	}

	/** The catalog dependency, as an HTTP service interface. */
	interface CatalogService {

		@GetExchange("/items")
		String items();

	}

	/** The inventory dependency, as an HTTP service interface. */
	interface InventoryService {

		@GetExchange("/stock")
		String stock();

	}

	@UnsecuredTestConfiguration
	@ImportHttpServices(group = "catalog", types = CatalogService.class)
	@ImportHttpServices(group = "inventory", types = InventoryService.class)
	static class ServiceClientApplication {

		@Bean
		CatalogController catalogController(CatalogService catalog) {
			return new CatalogController(catalog);
		}

	}

	@RestController
	static class CatalogController {

		private final CatalogService catalog;

		CatalogController(CatalogService catalog) {
			this.catalog = catalog;
		}

		@GetMapping("/api/catalog")
		String catalog() {
			return this.catalog.items();
		}

	}

}
