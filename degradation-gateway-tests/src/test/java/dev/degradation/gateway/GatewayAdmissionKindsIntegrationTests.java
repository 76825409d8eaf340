package dev.degradation.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.engine.OverloadSignal;
import dev.degradation.overload.Admission;
import dev.degradation.overload.QueueDelayLimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A gateway's requests are sampled by the adaptive limit by the route that forwarded them: a
 * gateway's handler has no path pattern, so without the route every request the manifest does not
 * name would share one no-load latency, and a fast route's answers would read as a queue in front
 * of a slow one. Request paths never become kinds.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:gateway-admission-manifest.yaml",
				"degradation.probes.enabled=false",
				"spring.cloud.gateway.server.webflux.routes[0].id=catalog",
				"spring.cloud.gateway.server.webflux.routes[0].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/catalog/**",
				"spring.cloud.gateway.server.webflux.routes[1].id=search",
				"spring.cloud.gateway.server.webflux.routes[1].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/search/**",
				"spring.cloud.gateway.server.webflux.routes[2].id=status",
				"spring.cloud.gateway.server.webflux.routes[2].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[2].predicates[0]=Path=/status/**" })
class GatewayAdmissionKindsIntegrationTests {

	private static final LoopbackBackend catalog = LoopbackBackend.start("catalog");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	OverloadSignal overload;

	@DynamicPropertySource
	static void backends(DynamicPropertyRegistry registry) {
		registry.add("backend.catalog", catalog::url);
		// The test application's route from the Java DSL.
		registry.add("backend.reviews", catalog::url);
	}

	@AfterAll
	static void stopBackends() {
		catalog.close();
	}

	@Test
	void eachProxiedRouteIsSampledAsItsOwnKindWhetherTheManifestNamesItOrNot() throws Exception {
		for (int i = 0; i < 10; i++) {
			for (String path : new String[] { "/catalog/items/" + i, "/search/q" + i, "/status/" + i,
					"/dsl/reviews/" + i }) {
				assertThat(get(path).statusCode()).as(path).isEqualTo(200);
			}
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
		assertThat(admission().algorithm()).isInstanceOfSatisfying(QueueDelayLimit.class,
				(limit) -> assertThat(limit.kinds())
					.containsExactlyInAnyOrder("gateway route catalog", "gateway route search", "gateway route status",
							"gateway route dsl-reviews"));
	}

	private Admission admission() {
		OverloadSignal.Active active = this.overload.active();
		assertThat(active).isNotNull();
		return active.admission();
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
