package dev.degradation.client;

import java.net.URI;
import java.time.Clock;
import java.util.NoSuchElementException;

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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The guards follow the engine's manifest when it is reloaded, with real Resilience4j registries:
 * an unchanged dependency keeps its breaker and what it knows, a changed call budget gets a new
 * breaker (and the engine forgets the old one), a new dependency is guarded below its base URL, and a removed one leaves the
 * registries and is no longer guarded.
 */
class DependencyGuardsReloadTests {

	private static final String BEFORE = """
			dependencies:
			  kept: { base_url: "http://127.0.0.1:9/kept", breaker: { minimum_calls: 5 } }
			  changed: { base_url: "http://127.0.0.1:9/changed", breaker: { minimum_calls: 5 } }
			  removed: { base_url: "http://127.0.0.1:9/removed" }
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/a, method: GET, fallback: drop, requires: [kept, changed, removed] }
			""";

	private static final String AFTER = """
			dependencies:
			  kept: { base_url: "http://127.0.0.1:9/kept", breaker: { minimum_calls: 5 } }
			  changed: { base_url: "http://127.0.0.1:9/changed", breaker: { minimum_calls: 7 } }
			  added: { base_url: "http://127.0.0.1:9/added" }
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/a, method: GET, fallback: drop, requires: [kept, changed, added] }
			""";

	private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();

	private final DegradationEngine engine = new DegradationEngine(manifest(BEFORE), Clock.systemUTC());

	private final DependencyGuards guards = new DependencyGuards(this.engine, this.breakers,
			TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults());

	@AfterEach
	void close() {
		this.guards.close();
	}

	@Test
	void anUnchangedDependencyKeepsItsBreakerAndItsState() {
		CircuitBreaker kept = this.guards.guard("kept").circuitBreaker();
		kept.transitionToOpenState();
		assertThat(this.engine.dependency("kept").state()).isEqualTo(DependencyState.FAILED);
		this.engine.replace(manifest(AFTER));
		assertThat(this.guards.guard("kept").circuitBreaker()).isSameAs(kept)
			.isSameAs(this.breakers.circuitBreaker("kept"));
		assertThat(kept.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(this.engine.dependency("kept").breaker()).isEqualTo(BreakerState.OPEN);
	}

	@Test
	void aChangedCallBudgetGetsANewBreakerWithItsSettings() {
		CircuitBreaker before = this.guards.guard("changed").circuitBreaker();
		this.engine.replace(manifest(AFTER));
		CircuitBreaker after = this.guards.guard("changed").circuitBreaker();
		assertThat(after).isNotSameAs(before).isSameAs(this.breakers.circuitBreaker("changed"));
		assertThat(after.getCircuitBreakerConfig().getMinimumNumberOfCalls()).isEqualTo(7);
		// The old breaker's transitions are not heard any more (calls begun before the reload
		// still finish on it); the new one's are evidence.
		before.transitionToOpenState();
		assertThat(this.engine.dependency("changed").state()).isNotEqualTo(DependencyState.FAILED);
		assertThat(this.engine.dependency("changed").breaker()).isEqualTo(BreakerState.CLOSED);
		after.transitionToOpenState();
		assertThat(this.engine.dependency("changed").state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void aBreakerThatWasOpenWhenItsBudgetChangedNoLongerShedsItsRoutes() {
		this.guards.guard("changed").circuitBreaker().transitionToOpenState();
		assertThat(this.engine.dependency("changed").state()).isEqualTo(DependencyState.FAILED);
		this.engine.replace(manifest(AFTER));
		// Its routes are shed and make no call: the guards are rebuilt on the reload itself, and
		// the new breaker, closed, is what the engine knows.
		assertThat(this.engine.dependency("changed").breaker()).isEqualTo(BreakerState.CLOSED);
		assertThat(this.engine.dependency("changed").state()).isNotEqualTo(DependencyState.FAILED);
	}

	@Test
	void aNewDependencyIsGuardedBelowItsBaseUrl() {
		assertThat(this.guards.forUrl(URI.create("http://127.0.0.1:9/added/x"))).isNull();
		this.engine.replace(manifest(AFTER));
		assertThat(this.guards.forUrl(URI.create("http://127.0.0.1:9/added/x"))).isNotNull()
			.satisfies((guard) -> assertThat(guard.dependency().name()).isEqualTo("added"));
		assertThat(this.breakers.find("added")).isPresent();
	}

	@Test
	void aRemovedDependencyLeavesTheRegistriesAndIsNoLongerGuarded() {
		CircuitBreaker removed = this.guards.guard("removed").circuitBreaker();
		this.engine.replace(manifest(AFTER));
		assertThat(this.guards.forUrl(URI.create("http://127.0.0.1:9/removed/x"))).isNull();
		assertThatExceptionOfType(NoSuchElementException.class).isThrownBy(() -> this.guards.guard("removed"))
			.withMessageContaining("kept, changed, added");
		assertThat(this.breakers.find("removed")).isEmpty();
		// A call begun before the reload may still move the old breaker: it sheds nothing.
		removed.transitionToOpenState();
		assertThat(this.engine.state().shedsAnything()).isFalse();
	}

	private static DegradationManifest manifest(String yaml) {
		return ManifestLoader.standard().load("manifest.yaml", yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8));
	}

}
