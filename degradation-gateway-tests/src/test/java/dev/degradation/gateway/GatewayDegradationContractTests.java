package dev.degradation.gateway;

import org.junit.jupiter.api.AfterAll;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.test.contract.DegradationContractTests;

/**
 * The contract tests generated from the manifest of a gateway with a handler of its own: each
 * route, proxied from properties or from the Java DSL, is served by its gateway route below its
 * level and answers its fallback from it; the gateway's own handler is never degraded. The
 * contract stops each request at its route's door, so no backend is called.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:gateway-routes-manifest.yaml", "degradation.verify=strict",
				"spring.cloud.gateway.server.webflux.routes[0].id=catalog",
				"spring.cloud.gateway.server.webflux.routes[0].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/catalog/**",
				"spring.cloud.gateway.server.webflux.routes[1].id=orders",
				"spring.cloud.gateway.server.webflux.routes[1].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/orders/**",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[1]=Method=POST" })
class GatewayDegradationContractTests extends DegradationContractTests {

	private static final LoopbackBackend catalog = LoopbackBackend.start("catalog");

	private static final LoopbackBackend reviews = LoopbackBackend.start("reviews");

	@DynamicPropertySource
	static void backends(DynamicPropertyRegistry registry) {
		registry.add("backend.catalog", catalog::url);
		registry.add("backend.reviews", reviews::url);
	}

	@AfterAll
	static void stopBackends() {
		catalog.close();
		reviews.close();
	}

}
