package dev.degradation.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.monitor.BreakerState;
import dev.degradation.monitor.DependencyState;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guards given their registries' suppliers are built at their first use, not when they are
 * created: the suppliers are asked once, then, and a reload before it builds nothing; the guards
 * then built are those of the manifest in force and report to the engine as guards built at once
 * do. Guards given registries are in them at once.
 */
class DependencyGuardsFirstUseTests {

	private static final String BEFORE = """
			dependencies:
			  orders: { base_url: "http://127.0.0.1:9/orders" }
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/a, method: GET, fallback: drop, requires: [orders] }
			""";

	private static final String AFTER = """
			dependencies:
			  orders: { base_url: "http://127.0.0.1:9/orders" }
			  payments: { base_url: "http://127.0.0.1:9/payments" }
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/a, method: GET, fallback: drop, requires: [orders, payments] }
			""";

	private final DegradationEngine engine = new DegradationEngine(manifest(BEFORE), Clock.systemUTC());

	private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();

	private final AtomicInteger asked = new AtomicInteger();

	private final DependencyGuards guards = new DependencyGuards(this.engine, counted(this.breakers),
			counted(TimeLimiterRegistry.ofDefaults()), counted(RetryRegistry.ofDefaults()),
			GuardExecutor.platformThreads(DependencyGuards.DEFAULT_MAX_THREADED_CALLS));

	@AfterEach
	void close() {
		this.guards.close();
	}

	@Test
	void theRegistriesAreAskedForAtTheFirstUseAndOnce() {
		assertThat(this.asked).hasValue(0);
		assertThat(this.breakers.getAllCircuitBreakers()).isEmpty();
		assertThat(this.guards.forUrl(URI.create("http://127.0.0.1:9/orders/1"))).isNotNull();
		assertThat(this.asked).hasValue(3);
		assertThat(this.breakers.find("orders")).isPresent();
		assertThat(this.guards.call("orders", () -> "answer")).isEqualTo("answer");
		assertThat(this.guards.guards()).hasSize(1);
		assertThat(this.asked).hasValue(3);
	}

	@Test
	void aReloadBeforeTheFirstUseBuildsNothingAndTheFirstUseBuildsTheManifestInForce() {
		this.engine.replace(manifest(AFTER));
		assertThat(this.asked).hasValue(0);
		assertThat(this.breakers.getAllCircuitBreakers()).isEmpty();
		assertThat(this.guards.guard("payments").dependency().name()).isEqualTo("payments");
		assertThat(this.breakers.getAllCircuitBreakers()).extracting(CircuitBreaker::getName)
			.containsExactlyInAnyOrder("orders", "payments");
	}

	@Test
	void aGuardBuiltAtTheFirstUseReportsItsBreakerToTheEngine() {
		CircuitBreaker orders = this.guards.guard("orders").circuitBreaker();
		orders.transitionToOpenState();
		assertThat(this.engine.dependency("orders").breaker()).isEqualTo(BreakerState.OPEN);
		assertThat(this.engine.dependency("orders").state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void guardsGivenTheirRegistriesAreInThemAtOnce() {
		CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults();
		try (DependencyGuards built = new DependencyGuards(this.engine, registry, TimeLimiterRegistry.ofDefaults(),
				RetryRegistry.ofDefaults())) {
			assertThat(registry.find("orders")).isPresent();
		}
	}

	private <T> Supplier<T> counted(T registry) {
		return () -> {
			this.asked.incrementAndGet();
			return registry;
		};
	}

	private static DegradationManifest manifest(String yaml) {
		return ManifestLoader.standard().load("manifest.yaml", yaml.getBytes(StandardCharsets.UTF_8));
	}

}
