package dev.degradation.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.client.DependencyGuards;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.RequestSimulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A request's own simulation at a real gateway: a proxied route is shed for that request alone, a
 * backend it simulates as failed is not called, and the proxied calls to a backend that is a
 * dependency carry the simulation on; with a wrong token the headers are not passed to any
 * backend, and a backend that is no dependency never receives them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:gateway-manifest.yaml",
				"degradation.simulation.requests.enabled=true",
				"degradation.simulation.requests.token=" + GatewayRequestSimulationIntegrationTests.TOKEN,
				"spring.cloud.gateway.server.webflux.routes[0].id=catalog",
				"spring.cloud.gateway.server.webflux.routes[0].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/catalog/**",
				"spring.cloud.gateway.server.webflux.routes[1].id=plain",
				"spring.cloud.gateway.server.webflux.routes[1].uri=${backend.plain}",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/plain/**" })
class GatewayRequestSimulationIntegrationTests {

	static final String TOKEN = "a-token-of-at-least-16-characters";

	private static final LoopbackBackend catalog = LoopbackBackend.start("catalog");

	/** A backend the manifest does not declare. */
	private static final LoopbackBackend plain = LoopbackBackend.start("plain");

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	DependencyGuards guards;

	@DynamicPropertySource
	static void backends(DynamicPropertyRegistry registry) {
		registry.add("backend.catalog", catalog::url);
		registry.add("backend.plain", plain::url);
		// Declared by the manifest, never routed to here.
		registry.add("backend.reviews", () -> "http://127.0.0.1:9");
		registry.add("backend.inventory", () -> "http://127.0.0.1:9");
		registry.add("backend.feed", () -> "http://127.0.0.1:9");
	}

	@BeforeEach
	void warmUp() {
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(get("/plain/warm-up", null, null).statusCode()).isEqualTo(200));
	}

	@AfterAll
	static void stopBackends() {
		catalog.close();
		plain.close();
	}

	@Test
	void aRouteIsShedForTheSimulatedRequestAloneAndItsBackendIsNotCalled() throws Exception {
		int reached = catalog.hits();
		HttpResponse<String> shed = get("/catalog/items", "failed=catalog", TOKEN);
		assertThat(shed.headers().firstValue("X-Degradation-Reason")).hasValue(RequestSimulation.CAUSE);
		assertThat(shed.body()).isEqualTo("{\"items\":[],\"source\":\"degraded\"}");
		assertThat(get("/catalog/items", "level=2", TOKEN).headers().firstValue("X-Degradation-Reason"))
			.hasValue(RequestSimulation.CAUSE);
		assertThat(catalog.hits()).isEqualTo(reached);
		HttpResponse<String> live = get("/catalog/items", null, null);
		assertThat(live.body()).isEqualTo("{\"backend\":\"catalog\",\"source\":\"live\"}");
		assertThat(this.engine.state().shedsAnything()).isFalse();
		assertThat(this.guards.guard("catalog").circuitBreaker().getMetrics().getNumberOfFailedCalls()).isZero();
	}

	@Test
	void aProxiedCallToADependencyCarriesTheSimulationOnAndToAnyOtherBackendNothing() throws Exception {
		HttpResponse<String> passed = get("/catalog/items", "failed=elsewhere", TOKEN);
		assertThat(passed.body()).isEqualTo("{\"backend\":\"catalog\",\"source\":\"live\"}");
		assertThat(catalog.simulation()).isEqualTo("failed=elsewhere");
		assertThat(catalog.simulationToken()).isEqualTo(TOKEN);
		get("/plain/items", "failed=elsewhere", TOKEN);
		assertThat(plain.simulation()).isNull();
		assertThat(plain.simulationToken()).isNull();
	}

	@Test
	void withAWrongTokenTheHeadersChangeNothingAndReachNoBackend() throws Exception {
		HttpResponse<String> live = get("/catalog/items", "level=2", "not-the-token-of-this-gateway");
		assertThat(live.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(catalog.simulation()).isNull();
		assertThat(catalog.simulationToken()).isNull();
		get("/plain/items", "level=2", "not-the-token-of-this-gateway");
		assertThat(plain.simulation()).isNull();
		assertThat(plain.simulationToken()).isNull();
	}

	private HttpResponse<String> get(String path, @Nullable String simulation, @Nullable String token)
			throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10));
		if (simulation != null) {
			request.header(RequestSimulation.HEADER, simulation);
		}
		if (token != null) {
			request.header(RequestSimulation.TOKEN_HEADER, token);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
