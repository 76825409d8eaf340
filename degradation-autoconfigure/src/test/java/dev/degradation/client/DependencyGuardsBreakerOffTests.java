package dev.degradation.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.monitor.DependencyState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A dead dependency whose breaker an operator turns off (Resilience4j's {@code DISABLED} or
 * {@code METRICS_ONLY}, through its registry or its Actuator endpoint) while the breaker is
 * half-open: real calls to an address where nothing listens open the breaker, which then lets
 * trials through. A breaker turned off judges no call, so it is no evidence of health: the
 * dependency is not reported healthy, as it is not after a breaker closed without a trial. Nor
 * is it when an operator closes the half-open breaker by hand (a transition or a reset) before
 * its trial calls were made; trial calls that succeed still close it as evidence of health.
 */
class DependencyGuardsBreakerOffTests {

	private static final String MANIFEST = """
			dependencies:
			  dead:
			    base_url: "http://127.0.0.1:9"
			    timeout_ms: 2000
			    breaker: { window_size: 2, minimum_calls: 2, half_open_calls: 2 }
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/a, method: GET, fallback: drop, requires: [dead] }
			""";

	private final DegradationEngine engine = new DegradationEngine(manifest(), Clock.systemUTC());

	private final DependencyGuards guards = new DependencyGuards(this.engine, CircuitBreakerRegistry.ofDefaults(),
			TimeLimiterRegistry.ofDefaults(), RetryRegistry.ofDefaults());

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	@AfterEach
	void close() {
		this.guards.close();
	}

	@ParameterizedTest
	@EnumSource(value = CircuitBreaker.State.class, names = { "DISABLED", "METRICS_ONLY" })
	void aBreakerTurnedOffDuringItsHalfOpenIsNoEvidenceOfHealth(CircuitBreaker.State off) {
		CircuitBreaker breaker = this.guards.guard("dead").circuitBreaker();
		for (int call = 0; call < 2; call++) {
			assertThatExceptionOfType(DependencyUnavailableException.class)
				.isThrownBy(() -> this.guards.call("dead", this::callTheDeadAddress));
		}
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(this.engine.dependency("dead").state()).isEqualTo(DependencyState.FAILED);
		// What open_ms does by itself: the breaker lets trials through, which are no health.
		breaker.transitionToHalfOpenState();
		assertThat(this.engine.dependency("dead").state()).isNotEqualTo(DependencyState.HEALTHY);
		turnOff(off).accept(breaker);
		assertThat(breaker.getState()).isEqualTo(off);
		assertThat(this.engine.dependency("dead").state()).isNotEqualTo(DependencyState.HEALTHY);
	}

	@ParameterizedTest
	@EnumSource(value = HandClosing.class)
	void aBreakerClosedByHandDuringItsHalfOpenIsNoEvidenceOfHealth(HandClosing closing) {
		CircuitBreaker breaker = openThenHalfOpen();
		closing.close(breaker);
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(this.engine.dependency("dead").state()).isNotEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void trialCallsThatSucceedCloseTheBreakerAsEvidenceOfHealth() {
		CircuitBreaker breaker = openThenHalfOpen();
		for (int call = 0; call < 2; call++) {
			assertThat(this.guards.call("dead", () -> "answered")).isEqualTo("answered");
		}
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(this.engine.dependency("dead").state()).isEqualTo(DependencyState.HEALTHY);
	}

	private CircuitBreaker openThenHalfOpen() {
		CircuitBreaker breaker = this.guards.guard("dead").circuitBreaker();
		for (int call = 0; call < 2; call++) {
			assertThatExceptionOfType(DependencyUnavailableException.class)
				.isThrownBy(() -> this.guards.call("dead", this::callTheDeadAddress));
		}
		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		breaker.transitionToHalfOpenState();
		return breaker;
	}

	/** How an operator closes a breaker without its trials: Resilience4j's own calls. */
	enum HandClosing {

		TRANSITION {
			@Override
			void close(CircuitBreaker breaker) {
				breaker.transitionToClosedState();
			}
		},

		RESET {
			@Override
			void close(CircuitBreaker breaker) {
				breaker.reset();
			}
		};

		abstract void close(CircuitBreaker breaker);

	}

	private static Consumer<CircuitBreaker> turnOff(CircuitBreaker.State off) {
		return (off == CircuitBreaker.State.DISABLED) ? CircuitBreaker::transitionToDisabledState
				: CircuitBreaker::transitionToMetricsOnlyState;
	}

	private HttpResponse<String> callTheDeadAddress() throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:9/")).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private static DegradationManifest manifest() {
		return ManifestLoader.standard().load("manifest.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));
	}

}
