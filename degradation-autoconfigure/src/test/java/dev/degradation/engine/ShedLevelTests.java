package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestDefaults;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.ShedScope;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.DependencyStateChange;
import dev.degradation.monitor.ProbeResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * With {@code failed_dependency_sheds: tiers} (the seed's cumulative behaviour), the computed shed
 * level against dependency states and time: up at once, down one tier per
 * hysteresis, never below what is required, under simulation, and bounded for a flapping
 * dependency.
 */
class ShedLevelTests {

	private static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

	private static final Duration HYSTERESIS = Duration.ofSeconds(90);

	private static final String MANIFEST = """
			defaults:
			  health_check_interval_ms: 1000
			  window_seconds: 10
			  min_samples: 3
			  failure_threshold: 0.4
			  recovery_threshold: 0.15
			  hysteresis_seconds: 90
			dependencies:
			  analytics: { health_url: "http://127.0.0.1:1/analytics" }
			  recommendations: { health_url: "http://127.0.0.1:1/recommendations" }
			  search: { health_url: "http://127.0.0.1:1/search" }
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /track, method: POST, fallback: drop, requires: [analytics] }
			  enhanced:
			    priority: 2
			    routes:
			      - { path: /recommendations, method: GET, fallback: drop, requires: [recommendations] }
			  extras:
			    priority: 5
			    routes:
			      - { path: /search, method: GET, fallback: drop, requires: [search] }
			""";

	private final TestClock clock = TestClock.at(START);

	private final DegradationEngine engine = new DegradationEngine(cumulative(
			ManifestLoader.standard().load("test.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8))), this.clock);

	private final List<LevelChange> levelChanges = new ArrayList<>();

	private final List<DependencyStateChange> dependencyChanges = new ArrayList<>();

	ShedLevelTests() {
		this.engine.addListener(new DegradationListener() {

			@Override
			public void levelChanged(LevelChange change) {
				ShedLevelTests.this.levelChanges.add(change);
			}

			@Override
			public void dependencyChanged(DependencyStateChange change) {
				ShedLevelTests.this.dependencyChanges.add(change);
			}

		});
	}

	@Test
	void unknownAndHealthyDependenciesShedNothing() {
		assertThat(this.engine.evaluate().level()).isZero();
		probe("recommendations", true, true, true);
		assertThat(this.engine.dependency("recommendations").state()).isEqualTo(DependencyState.HEALTHY);
		assertThat(this.engine.state().level()).isZero();
		assertThat(this.levelChanges).isEmpty();
	}

	@Test
	void aFailedDependencyRaisesTheLevelAtOnceToTheHighestPriorityThatRequiresIt() {
		probe("recommendations", false, false);
		assertThat(this.engine.state().level()).isZero();
		probe("recommendations", false);
		DegradationState state = this.engine.state();
		assertThat(state.level()).isEqualTo(2);
		assertThat(state.computedLevel()).isEqualTo(2);
		assertThat(state.shedTiers()).containsExactly("best-effort", "enhanced");
		assertThat(state.reason()).isEqualTo("raised to 2: recommendations failed (required up to level 2)");
		assertThat(state.changedAt()).isEqualTo(this.clock.instant());
		assertThat(this.dependencyChanges).singleElement()
			.satisfies((change) -> assertThat(change.state()).isEqualTo(DependencyState.FAILED));
		assertThat(this.levelChanges).singleElement().satisfies((change) -> {
			assertThat(change.previousLevel()).isZero();
			assertThat(change.level()).isEqualTo(2);
		});
	}

	@Test
	void theLevelRisesFurtherAtOnceEvenWithinTheHysteresis() {
		this.engine.forceDependency("analytics", DependencyState.FAILED);
		assertThat(this.engine.state().level()).isEqualTo(1);
		this.clock.advance(Duration.ofSeconds(1));
		this.engine.forceDependency("search", DependencyState.FAILED);
		assertThat(this.engine.state().level()).isEqualTo(5);
		assertThat(this.engine.state().shedTiers()).containsExactly("best-effort", "enhanced", "extras");
	}

	@Test
	void theLevelStepsDownOneTierPerHysteresis() {
		this.engine.forceDependency("search", DependencyState.FAILED);
		assertThat(this.engine.state().level()).isEqualTo(5);
		this.engine.releaseDependency("search");
		assertThat(this.engine.state().level()).isEqualTo(5);
		assertLevelAt(HYSTERESIS.minusSeconds(1), 5);
		assertLevelAt(HYSTERESIS, 2);
		assertThat(this.engine.state().reason())
			.isEqualTo("stepped down to 2 after 90 s of hysteresis; no failed dependency is required");
		assertLevelAt(HYSTERESIS.minusSeconds(1), 2);
		assertLevelAt(HYSTERESIS, 1);
		assertLevelAt(HYSTERESIS.minusSeconds(1), 1);
		assertLevelAt(HYSTERESIS, 0);
		assertThat(this.levelChanges).extracting(LevelChange::level).containsExactly(5, 2, 1, 0);
	}

	@Test
	void eachTierSaysWhenTheStepsDownOfTheLevelLetItGo() {
		this.engine.forceDependency("search", DependencyState.FAILED);
		DegradationState failed = this.engine.state();
		assertThat(failed.holds(0).get(DependencySignal.NAME).rule()).isEqualTo("dependency-failed");
		assertThat(failed.holds(0).get(DependencySignal.NAME).restoresAt()).isNull();
		this.clock.advance(Duration.ofSeconds(10));
		this.engine.releaseDependency("search");
		Instant changedAt = this.engine.state().changedAt();
		// Routes by index: 0 /track (priority 1), 1 /recommendations (2), 2 /search (5).
		DegradationState held = this.engine.state();
		assertThat(held.holds(2).get(DependencySignal.NAME)).satisfies((hold) -> {
			assertThat(hold.rule()).isEqualTo("level-hysteresis");
			assertThat(hold.restoresAt()).isEqualTo(changedAt.plus(HYSTERESIS));
		});
		assertThat(held.holds(1).get(DependencySignal.NAME).restoresAt())
			.isEqualTo(changedAt.plus(HYSTERESIS.multipliedBy(2)));
		Instant trackBack = held.holds(0).get(DependencySignal.NAME).restoresAt();
		assertThat(trackBack).isEqualTo(changedAt.plus(HYSTERESIS.multipliedBy(3)));
		this.clock.advanceTo(changedAt.plus(HYSTERESIS));
		assertThat(this.engine.evaluate().level()).isEqualTo(2);
		assertThat(this.engine.state().holds(0).get(DependencySignal.NAME).restoresAt()).isEqualTo(trackBack);
		this.clock.advanceTo(changedAt.plus(HYSTERESIS.multipliedBy(2)));
		assertThat(this.engine.evaluate().level()).isEqualTo(1);
		this.clock.advanceTo(trackBack.minusMillis(1));
		assertThat(this.engine.evaluate().shedCause(0)).isNotNull();
		this.clock.advanceTo(trackBack);
		assertThat(this.engine.evaluate().shedCause(0)).isNull();
	}

	@Test
	void aTierStillRequiredWaitsForItsDependencyWithoutARestoreTime() {
		this.engine.forceDependency("recommendations", DependencyState.FAILED);
		this.engine.forceDependency("search", DependencyState.FAILED);
		this.engine.releaseDependency("search");
		DegradationState state = this.engine.state();
		assertThat(state.holds(2).get(DependencySignal.NAME).rule()).isEqualTo("level-hysteresis");
		assertThat(state.holds(1).get(DependencySignal.NAME)).satisfies((hold) -> {
			assertThat(hold.rule()).isEqualTo("dependency-failed");
			assertThat(hold.restoresAt()).isNull();
			assertThat(hold.detail()).contains("recommendations failed");
		});
	}

	@Test
	void theLevelNeverStepsBelowWhatIsStillRequired() {
		this.engine.forceDependency("recommendations", DependencyState.FAILED);
		this.engine.forceDependency("search", DependencyState.FAILED);
		assertThat(this.engine.state().level()).isEqualTo(5);
		this.engine.releaseDependency("search");
		assertLevelAt(HYSTERESIS, 2);
		assertThat(this.engine.state().reason()).contains("still required: 2");
		assertLevelAt(HYSTERESIS.multipliedBy(5), 2);
		assertThat(this.levelChanges).extracting(LevelChange::level).containsExactly(2, 5, 2);
	}

	@Test
	void aFailureDuringTheStepsDownRaisesTheLevelAgainAtOnce() {
		this.engine.forceDependency("search", DependencyState.FAILED);
		this.engine.releaseDependency("search");
		assertLevelAt(HYSTERESIS, 2);
		this.clock.advance(Duration.ofSeconds(10));
		this.engine.forceDependency("search", DependencyState.FAILED);
		assertThat(this.engine.state().level()).isEqualTo(5);
	}

	@Test
	void simulationOverridesTheComputedLevelWhichGoesOnUnderneath() {
		this.engine.simulate(0);
		this.engine.forceDependency("recommendations", DependencyState.FAILED);
		DegradationState state = this.engine.state();
		assertThat(state.level()).isZero();
		assertThat(state.computedLevel()).isEqualTo(2);
		assertThat(this.levelChanges).isEmpty();
		DegradationState after = this.engine.stopSimulation();
		assertThat(after.level()).isEqualTo(2);
		assertThat(this.levelChanges).extracting(LevelChange::level).containsExactly(2);
	}

	@Test
	void forcingADependencyUpHidesItsFailedProbes() {
		probe("recommendations", false, false, false);
		assertThat(this.engine.state().level()).isEqualTo(2);
		this.engine.forceDependency("recommendations", DependencyState.HEALTHY);
		assertLevelAt(HYSTERESIS, 1);
		assertThat(this.engine.dependency("recommendations").computedState()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void anUnknownDependencyNameIsRefusedWithTheDeclaredNames() {
		assertThatExceptionOfType(NoSuchElementException.class)
			.isThrownBy(() -> this.engine.forceDependency("recomendations", DependencyState.FAILED))
			.withMessage("No dependency named 'recomendations'; declared: analytics, recommendations, search");
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void aDependencyFlappingOnEveryProbeChangesTheLevelOnce() {
		// Alternating results hold the error rate near 50 %: failed, and never down to 15 %.
		for (int i = 0; i < 600; i++) {
			probe("recommendations", i % 2 == 0);
		}
		assertThat(this.engine.state().level()).isEqualTo(2);
		assertThat(this.levelChanges).hasSize(1);
		assertThat(this.dependencyChanges).hasSize(2);
	}

	@Test
	void aDependencyFlappingInBurstsChangesTheLevelABoundedNumberOfTimes() {
		// Ten minutes of 15 s outages followed by 15 s of health: the dependency itself fails and
		// recovers every 30 s, but each step down waits 90 s since the last change, so the level
		// can change at most twice per 90 s (one step down, one rise), plus the first rise.
		Duration total = Duration.ofMinutes(10);
		int seconds = (int) total.toSeconds();
		for (int second = 0; second < seconds; second++) {
			probe("recommendations", (second / 15) % 2 == 1);
		}
		long bound = 2 * (total.toSeconds() / HYSTERESIS.toSeconds()) + 1;
		long dependencyFlips = this.dependencyChanges.size();
		assertThat(dependencyFlips).isGreaterThanOrEqualTo(30);
		assertThat(this.levelChanges).hasSizeLessThanOrEqualTo((int) bound);
		assertThat(this.levelChanges).isNotEmpty();
	}

	static DegradationManifest cumulative(DegradationManifest manifest) {
		ManifestDefaults defaults = manifest.defaults();
		return new DegradationManifest(manifest.source(),
				new ManifestDefaults(defaults.healthCheck(), defaults.hysteresis(), ShedScope.TIERS),
				manifest.dependencies(), manifest.tiers());
	}

	private void probe(String dependency, boolean... outcomes) {
		for (boolean healthy : outcomes) {
			this.clock.advance(Duration.ofSeconds(1));
			this.engine.recordProbe(dependency, new ProbeResult(healthy, healthy ? ProbeResult.OK : "http_5xx",
					healthy ? "HTTP 200" : "HTTP 500", this.clock.instant(), Duration.ofMillis(2)));
		}
	}

	private void assertLevelAt(Duration sinceLastChange, int level) {
		this.clock.advanceTo(this.engine.state().changedAt().plus(sinceLastChange));
		assertThat(this.engine.evaluate().level()).as("level %s after the last change", sinceLastChange)
			.isEqualTo(level);
	}

}
