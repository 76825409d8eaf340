package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The engine's simulation: levels, snapshots, and the changes it reports.
 */
class DegradationEngineTests {

	private static final String MANIFEST = """
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /a, method: POST, fallback: drop }
			  enhanced:
			    priority: 2
			    routes:
			      - { path: /b, method: GET, fallback: static, static_response: {} }
			  extras:
			    priority: 5
			    routes:
			      - { path: /c, method: GET, fallback: drop }
			""";

	private final Instant start = Instant.parse("2026-11-29T10:00:00Z");

	private final DegradationManifest manifest = ManifestLoader.standard()
		.load("test.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));

	private final List<LevelChange> changes = new ArrayList<>();

	private DegradationEngine engine(Clock clock) {
		DegradationEngine engine = new DegradationEngine(this.manifest, clock);
		engine.addListener(new DegradationListener() {

			@Override
			public void levelChanged(LevelChange change) {
				DegradationEngineTests.this.changes.add(change);
			}

		});
		return engine;
	}

	@Test
	void startsAtLevelZeroWithNothingShed() {
		DegradationState state = engine(Clock.fixed(this.start, ZoneOffset.UTC)).state();
		assertThat(state.level()).isZero();
		assertThat(state.shedTiers()).isEmpty();
		assertThat(state.simulation()).isEqualTo(Simulation.OFF);
		assertThat(state.changedAt()).isEqualTo(this.start);
		assertThat(state.sheds(1)).isFalse();
	}

	@Test
	void simulatedLevelShedsEveryTierUpToIt() {
		DegradationEngine engine = engine(Clock.fixed(this.start, ZoneOffset.UTC));
		DegradationState state = engine.simulate(2);
		assertThat(state.level()).isEqualTo(2);
		assertThat(state.shedTiers()).containsExactly("best-effort", "enhanced");
		assertThat(state.sheds(2)).isTrue();
		assertThat(state.sheds(5)).isFalse();
		assertThat(state.simulation()).isEqualTo(new Simulation(true, 2));
		assertThat(engine.state()).isSameAs(state);
	}

	@Test
	void aLevelBetweenTwoPrioritiesShedsTheTiersBelowIt() {
		DegradationState state = engine(Clock.systemUTC()).simulate(4);
		assertThat(state.shedTiers()).containsExactly("best-effort", "enhanced");
	}

	@Test
	void levelsOutsideZeroToTheHighestPriorityAreRejectedAndChangeNothing() {
		DegradationEngine engine = engine(Clock.systemUTC());
		DegradationState before = engine.state();
		assertThatIllegalArgumentException().isThrownBy(() -> engine.simulate(6))
			.withMessageContaining("Shed level 6 is out of range")
			.withMessageContaining("0 (nothing shed) to 5");
		assertThatIllegalArgumentException().isThrownBy(() -> engine.simulate(-1));
		assertThat(engine.state()).isSameAs(before);
		assertThat(this.changes).isEmpty();
	}

	@Test
	void stoppingSimulationRestoresTheComputedLevelAtOnce() {
		DegradationEngine engine = engine(Clock.systemUTC());
		engine.simulate(5);
		DegradationState state = engine.stopSimulation();
		assertThat(state.level()).isZero();
		assertThat(state.simulation().enabled()).isFalse();
		assertThat(state.shedTiers()).isEmpty();
	}

	@Test
	void everyLevelChangeIsReportedOnceWithItsReasonAndTime() {
		TestClock clock = TestClock.at(this.start);
		DegradationEngine engine = engine(clock);
		engine.simulate(1);
		clock.advanceTo(this.start.plusSeconds(5));
		engine.simulate(2);
		engine.simulate(2);
		clock.advanceTo(this.start.plusSeconds(9));
		engine.stopSimulation();
		engine.stopSimulation();
		assertThat(this.changes).extracting(LevelChange::previousLevel, LevelChange::level)
			.containsExactly(tuple(0, 1), tuple(1, 2),
					tuple(2, 0));
		assertThat(this.changes.get(1).reason()).isEqualTo("simulation at level 2");
		assertThat(this.changes.get(1).at()).isEqualTo(this.start.plusSeconds(5));
		assertThat(this.changes.get(1).shedTiers()).containsExactly("best-effort", "enhanced");
		assertThat(this.changes.get(2).reason()).contains("simulation off");
		assertThat(engine.state().changedAt()).isEqualTo(this.start.plusSeconds(9));
	}

	@Test
	void simulatingTheCurrentLevelTurnsSimulationOnWithoutAChange() {
		DegradationEngine engine = engine(Clock.systemUTC());
		DegradationState state = engine.simulate(0);
		assertThat(state.simulation().enabled()).isTrue();
		assertThat(this.changes).isEmpty();
	}

	@Test
	void aListenerThatThrowsNeitherStopsTheChangeNorTheListenersAfterIt() {
		DegradationEngine engine = new DegradationEngine(this.manifest, Clock.systemUTC());
		List<Integer> told = new ArrayList<>();
		engine.addListener(new DegradationListener() {

			@Override
			public void levelChanged(LevelChange change) {
				throw new IllegalStateException("listener failure");
			}

		});
		engine.addListener(new DegradationListener() {

			@Override
			public void levelChanged(LevelChange change) {
				told.add(change.level());
			}

		});
		assertThat(engine.simulate(2).level()).isEqualTo(2);
		assertThat(engine.state().level()).isEqualTo(2);
		assertThat(told).containsExactly(2);
	}

	@Test
	void levelHeaderIsTheLevelAsText() {
		DegradationEngine engine = engine(Clock.systemUTC());
		assertThat(engine.simulate(5).levelHeader()).isEqualTo("5");
		assertThat(new DegradationState(12, 0, Simulation.OFF, List.of(), this.start, "", Map.of(), new String[0], new String[0], true, this.manifest, new FallbackCounts(0)).levelHeader())
			.isEqualTo("12");
	}

	@Test
	void fallbackCountsAreKeptPerRoute() {
		DegradationEngine engine = engine(Clock.systemUTC());
		engine.fallbackCounts().record(1, "simulation");
		engine.fallbackCounts().record(1, "dependency");
		engine.fallbackCounts().record(1, "maintenance");
		assertThat(engine.fallbackCounts().count(0)).isZero();
		assertThat(engine.fallbackCounts().count(1)).isEqualTo(3);
		assertThat(engine.fallbackCounts().count(1, "dependency")).isEqualTo(1);
		assertThat(engine.fallbackCounts().count(1, "maintenance")).isEqualTo(1);
		assertThat(engine.fallbackCounts().count(1, "switch")).isZero();
		assertThat(engine.fallbackCounts().kinds()).containsExactly("dependency", "simulation", "maintenance");
	}

}
