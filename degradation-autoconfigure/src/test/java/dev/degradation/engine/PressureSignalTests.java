package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.degradation.actuate.PressureSampler;
import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.ManifestProblem;
import dev.degradation.manifest.VerificationMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pressure rules on a real Micrometer registry and the engine with a clock the test moves: a rule
 * sheds its tier and every lower one while its meter is above its threshold, lets go below the
 * other, and the level comes down one tier per hysteresis; the highest rule wins.
 */
class PressureSignalTests {

	private static final Instant START = Instant.parse("2026-12-03T12:00:00Z");

	private static final String MANIFEST = """
			defaults:
			  hysteresis_seconds: 10
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /recommendations, method: GET, fallback: drop }
			  enhanced:
			    priority: 2
			    routes:
			      - { path: /reviews, method: GET, fallback: drop }
			  important:
			    priority: 3
			    routes:
			      - { path: /orders/export, method: GET, fallback: drop }
			pressure:
			  - meter: test.heap.after.gc
			    tags: { area: heap }
			    shed_above: 0.9
			    restore_below: 0.8
			    sheds: best-effort
			  - meter: test.pool.pending
			    shed_above: 2
			    restore_below: 1
			    sheds: enhanced
			""";

	private final TestClock clock = TestClock.at(START);

	private final DegradationManifest manifest = ManifestLoader.standard()
		.load("test.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));

	private final PressureSignal pressure = new PressureSignal(this.manifest, START);

	private final DegradationEngine engine = new DegradationEngine(this.manifest, this.clock, List.of(this.pressure),
			Runnable::run);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final AtomicReference<Double> heap = new AtomicReference<>(0.5);

	private final AtomicReference<Double> pending = new AtomicReference<>(0.0);

	private final PressureSampler sampler = new PressureSampler(this.pressure, this.engine, this.registry,
			VerificationMode.STRICT);

	PressureSignalTests() {
		Gauge.builder("test.heap.after.gc", this.heap, AtomicReference::get).tag("area", "heap").register(this.registry);
		// A meter of the same name with other tags is not the rule's.
		Gauge.builder("test.heap.after.gc", () -> 0.99).tag("area", "nonheap").register(this.registry);
		Gauge.builder("test.pool.pending", this.pending, AtomicReference::get).tag("pool", "a").register(this.registry);
	}

	@Test
	void aRuleShedsItsTierAboveItsThresholdAndLetsGoBelowTheOtherAfterTheHysteresis() {
		sample(0.85, 0);
		assertThat(this.engine.state().level()).as("between the thresholds, nothing presses").isZero();
		sample(0.95, 0);
		DegradationState shed = this.engine.state();
		assertThat(shed.level()).isEqualTo(1);
		assertThat(shed.shedCause(0)).isEqualTo("pressure:test.heap.after.gc");
		assertThat(shed.shedCause(1)).isNull();

		this.clock.advance(Duration.ofSeconds(30));
		sample(0.85, 0);
		assertThat(this.engine.state().level()).as("above restore_below, the rule still presses").isEqualTo(1);
		sample(0.7, 0);
		assertThat(this.engine.state().level()).as("the level came up 30 s ago: it steps down at once")
			.isZero();
	}

	@Test
	void theLevelComesDownOneTierPerHysteresisOnceNoRulePresses() {
		sample(0.5, 3);
		assertThat(this.engine.state().level()).isEqualTo(2);
		assertThat(this.engine.state().shedCause(0)).isEqualTo("pressure:test.pool.pending");
		this.clock.advance(Duration.ofSeconds(2));
		sample(0.5, 0);
		assertThat(this.engine.state().level()).as("within the hysteresis").isEqualTo(2);
		assertThat(this.engine.state().shedCause(1)).as("its cause while it comes down")
			.isEqualTo("pressure:test.pool.pending");
		this.clock.advance(Duration.ofSeconds(8));
		this.engine.evaluate();
		assertThat(this.engine.state().level()).isEqualTo(1);
		this.clock.advance(Duration.ofSeconds(10));
		this.engine.evaluate();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void severalRulesMayPressAtOnceAndTheHighestTierWins() {
		sample(0.95, 5);
		DegradationState state = this.engine.state();
		assertThat(state.level()).isEqualTo(2);
		assertThat(state.shedCause(0)).isEqualTo("pressure:test.pool.pending");
		assertThat(state.shedCause(2)).as("the important tier is no rule's").isNull();
		@SuppressWarnings("unchecked")
		Map<String, Object> section = (Map<String, Object>) this.pressure.sections(state).get("pressure");
		assertThat(section.get("level")).isEqualTo(2);
		assertThat(section.get("rules").toString()).contains("state=pressing", "value=0.95", "value=5.0");
	}

	@Test
	void aMeterThatDisappearsPressesNothing() {
		sample(0.95, 0);
		assertThat(this.engine.state().level()).isEqualTo(1);
		this.registry.clear();
		this.clock.advance(Duration.ofSeconds(30));
		this.sampler.sample();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void aMeterTheApplicationDoesNotHaveIsAPositionedProblemWithTheClosestName() {
		DegradationManifest typo = ManifestLoader.standard()
			.load("typo.yaml", MANIFEST.replace("test.pool.pending", "test.pool.pendng").getBytes(StandardCharsets.UTF_8));
		List<ManifestProblem> problems = this.sampler.check(typo);
		assertThat(problems).singleElement().satisfies((problem) -> {
			assertThat(problem.path()).isEqualTo("pressure[1].meter");
			assertThat(problem.position().line()).isEqualTo(22);
			assertThat(problem.message()).contains("'test.pool.pendng'", "did you mean 'test.pool.pending'");
		});
		DegradationManifest tags = ManifestLoader.standard()
			.load("tags.yaml", MANIFEST.replace("area: heap", "area: offheap").getBytes(StandardCharsets.UTF_8));
		assertThat(this.sampler.check(tags)).singleElement()
			.satisfies((problem) -> assertThat(problem.message()).contains("has the tags {area=offheap}", "area"));
		assertThat(this.sampler.check(this.manifest)).isEmpty();
	}

	private void sample(double heap, double pending) {
		this.heap.set(heap);
		this.pending.set(pending);
		this.sampler.sample();
	}

}
