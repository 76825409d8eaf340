package dev.degradation.shapes.cloud.gateway;

import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.client.DependencyGuards;
import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.shapes.ShapeChecks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway shape with the application's own {@code Retry} filter (one retry) on routes to
 * services that are dependencies, beside the same filter on a route to a service that is none:
 * Spring Cloud's real simple discovery lists two instances of the catalog and of the other
 * service, a dead one (its port refuses) and a live one, which the real load balancer takes in
 * turn, so a retry of a refused call goes to the live instance; the inventory has one instance,
 * whose first answer the test makes hang or fail. The starter's guard must leave the retry as it
 * is without the starter, count each attempt as one call of the dependency, still answer the
 * declared fallback once the retries are spent, and never retry a call its breaker keeps back.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		// The shape's routes, all of them (a list is bound from one source), with a Retry filter.
		properties = { "degradation.manifest=classpath:retry-manifest.yaml",
				"spring.cloud.gateway.server.webflux.routes[0].id=catalog",
				"spring.cloud.gateway.server.webflux.routes[0].uri=lb://catalog",
				"spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/catalog/**",
				"spring.cloud.gateway.server.webflux.routes[0].filters[0].name=Retry",
				"spring.cloud.gateway.server.webflux.routes[0].filters[0].args.retries=1",
				"spring.cloud.gateway.server.webflux.routes[1].id=reviews",
				"spring.cloud.gateway.server.webflux.routes[1].uri=lb://reviews",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/reviews/**",
				"spring.cloud.gateway.server.webflux.routes[2].id=legacy-catalog",
				"spring.cloud.gateway.server.webflux.routes[2].uri=lb://catalog",
				"spring.cloud.gateway.server.webflux.routes[2].predicates[0]=Path=/legacy/**",
				"spring.cloud.gateway.server.webflux.routes[2].filters[0].name=Retry",
				"spring.cloud.gateway.server.webflux.routes[2].filters[0].args.retries=1",
				"spring.cloud.gateway.server.webflux.routes[3].id=plain",
				"spring.cloud.gateway.server.webflux.routes[3].uri=lb://plain",
				"spring.cloud.gateway.server.webflux.routes[3].predicates[0]=Path=/plain/**",
				"spring.cloud.gateway.server.webflux.routes[3].filters[0].name=Retry",
				"spring.cloud.gateway.server.webflux.routes[3].filters[0].args.retries=1",
				"spring.cloud.gateway.server.webflux.routes[4].id=inventory",
				"spring.cloud.gateway.server.webflux.routes[4].uri=lb://inventory",
				"spring.cloud.gateway.server.webflux.routes[4].predicates[0]=Path=/inventory/**",
				"spring.cloud.gateway.server.webflux.routes[4].filters[0].name=Retry",
				"spring.cloud.gateway.server.webflux.routes[4].filters[0].args.retries=1" })
class GatewayRetryTests {

	/** A killed instance: its port refuses connections. */
	private static final LoopbackDependency dead = killed();

	private static final LoopbackDependency live = LoopbackDependency.start();

	private static final LoopbackDependency reviews = LoopbackDependency.start();

	private static final LoopbackDependency inventory = LoopbackDependency.start();

	@LocalServerPort
	int port;

	@Autowired
	DependencyGuards guards;

	@DynamicPropertySource
	static void instances(DynamicPropertyRegistry registry) {
		// The catalog and a service that is no dependency, each at the same two instances.
		for (String service : new String[] { "catalog", "plain" }) {
			registry.add("spring.cloud.discovery.client.simple.instances." + service + "[0].uri", dead::url);
			registry.add("spring.cloud.discovery.client.simple.instances." + service + "[1].uri", live::url);
		}
		registry.add("spring.cloud.discovery.client.simple.instances.reviews[0].uri", reviews::url);
		registry.add("spring.cloud.discovery.client.simple.instances.inventory[0].uri", inventory::url);
	}

	@BeforeEach
	void closedBreaker() {
		breaker().reset();
		this.guards.guard("inventory").circuitBreaker().reset();
		live.forget();
		inventory.forget();
	}

	@AfterEach
	void liveAgain() {
		live.restart();
		breaker().reset();
	}

	@AfterAll
	static void stopInstances() {
		dead.close();
		live.close();
		reviews.close();
		inventory.close();
	}

	@Test
	void aCallRefusedByADeadInstanceIsRetriedOnTheLiveOneAsWithoutTheStarter() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		// Without the starter's guard (no dependency): the retry answers every request.
		for (int call = 0; call < 4; call++) {
			assertLive(checks.get("/plain/items"));
		}
		for (int call = 0; call < 4; call++) {
			assertLive(checks.get("/catalog/items"));
		}
		assertThat(live.received("/catalog/items")).hasSize(4);
		// Each attempt is one call for the breaker: the refused ones failed (each request after the
		// first met the dead instance first, the load balancer taking them in turn), the retries
		// succeeded.
		CircuitBreaker.Metrics metrics = breaker().getMetrics();
		assertThat(metrics.getNumberOfSuccessfulCalls()).isEqualTo(4);
		assertThat(metrics.getNumberOfFailedCalls()).isBetween(3, 4);
	}

	@Test
	void aCallThatRunsPastTheDependencysTimeLimitIsRetriedAsWithoutTheStarter() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		CircuitBreaker breaker = this.guards.guard("inventory").circuitBreaker();
		AtomicInteger calls = new AtomicInteger();
		inventory.answer((request) -> (calls.incrementAndGet() == 1) ? Answer.hang() : LoopbackDependency.HEALTHY);
		// The first call ends at call_timeout_ms with the gateway's own response timeout, which
		// the Retry filter retries by default; the retry is answered.
		assertLive(checks.get("/inventory/items"));
		assertThat(inventory.received("/inventory/items")).hasSize(2);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(1);
	}

	@Test
	void aServerErrorAnswerIsRepeatedAsWithoutTheStarterAndEachAnswerCounts() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		CircuitBreaker breaker = this.guards.guard("inventory").circuitBreaker();
		AtomicInteger calls = new AtomicInteger();
		inventory.answer((request) -> (calls.incrementAndGet() == 1) ? LoopbackDependency.FAILING
				: LoopbackDependency.HEALTHY);
		// The filter repeats a 5xx answer to a GET by default.
		assertLive(checks.get("/inventory/items"));
		assertThat(inventory.received("/inventory/items")).hasSize(2);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(1);
	}

	@Test
	void whenEveryAttemptIsRefusedTheBreakerCountsEachAndTheDeclaredFallbackAnswers() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		live.stop();
		HttpResponse<String> exhausted = checks.get("/catalog/items");
		assertThat(exhausted.headers().firstValue("X-Degraded")).as(exhausted.statusCode() + " " + exhausted.body())
			.hasValue("true");
		assertThat(exhausted.headers().firstValue("X-Degradation-Tier")).hasValue("enhanced");
		assertThat(exhausted.body()).isEqualTo("{\"source\":\"degraded\"}");
		// The first attempt and its one retry.
		assertThat(breaker().getMetrics().getNumberOfFailedCalls()).isEqualTo(2);
	}

	@Test
	void aCallTheOpenBreakerKeepsBackIsNotRetried() {
		ShapeChecks checks = ShapeChecks.onPort(this.port);
		breaker().transitionToOpenState();
		// A route the manifest does not name is not shed: its call reaches the guard, which keeps
		// it back, and the application's CircuitBreaker filter answers with its own fallback.
		HttpResponse<String> keptBack = checks.get("/legacy/items");
		assertThat(keptBack.body()).as(keptBack.statusCode() + " " + keptBack.body())
			.isEqualTo("{\"source\":\"application-fallback\"}");
		// The breaker was asked once, not once more for a retry, and no instance was called.
		assertThat(breaker().getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(1);
		assertThat(live.received("/legacy/items")).isEmpty();
		// A route that requires the catalog gets its declared fallback.
		HttpResponse<String> shed = checks.get("/catalog/items");
		assertThat(shed.headers().firstValue("X-Degraded")).as(shed.statusCode() + " " + shed.body()).hasValue("true");
		assertThat(shed.body()).isEqualTo("{\"source\":\"degraded\"}");
		assertThat(live.received("/catalog/items")).isEmpty();
	}

	private static LoopbackDependency killed() {
		LoopbackDependency instance = LoopbackDependency.start();
		instance.stop();
		return instance;
	}

	private CircuitBreaker breaker() {
		return this.guards.guard("catalog").circuitBreaker();
	}

	private static void assertLive(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).as(response.body()).isEmpty();
		assertThat(response.body()).contains("UP");
	}

}
