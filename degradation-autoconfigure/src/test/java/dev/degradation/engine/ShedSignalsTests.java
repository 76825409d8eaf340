package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.ProbeResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The engine as a combination of shed signals: precise shedding by default, each signal alone and
 * together, the dependencies' hysteresis per dependency, reset, and listeners told outside the
 * lock.
 */
class ShedSignalsTests {

	private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

	private static final Duration HYSTERESIS = Duration.ofSeconds(90);

	/** Routes by index: 0 POST /track, 1 GET /assign, 2 GET /recommendations, 3 GET /reviews. */
	private static final String MANIFEST = """
			defaults:
			  health_check_interval_ms: 1000
			  window_seconds: 10
			  min_samples: 3
			  hysteresis_seconds: 90
			dependencies:
			  analytics: { health_url: "http://127.0.0.1:1/analytics" }
			  recommendations: { health_url: "http://127.0.0.1:1/recommendations" }
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /track, method: POST, fallback: drop, requires: [analytics] }
			      - { path: /assign, method: GET, fallback: drop }
			  enhanced:
			    priority: 2
			    routes:
			      - { path: /recommendations, method: GET, fallback: drop, requires: [recommendations] }
			      - { path: /reviews, method: GET, fallback: drop, requires: [analytics] }
			""";

	private final TestClock clock = TestClock.at(START);

	private final DegradationManifest manifest = ManifestLoader.standard()
		.load("test.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));

	private final TestSignal custom = new TestSignal();

	private final DegradationEngine engine = new DegradationEngine(this.manifest, this.clock, List.of(this.custom),
			Runnable::run);

	private final List<ShedChange> shedChanges = new ArrayList<>();

	private final List<LevelChange> levelChanges = new ArrayList<>();

	private ExecutorService notifier;

	ShedSignalsTests() {
		this.engine.addListener(new DegradationListener() {

			@Override
			public void shedChanged(ShedChange change) {
				ShedSignalsTests.this.shedChanges.add(change);
			}

			@Override
			public void levelChanged(LevelChange change) {
				ShedSignalsTests.this.levelChanges.add(change);
			}

		});
	}

	@AfterEach
	void stopNotifier() {
		if (this.notifier != null) {
			this.notifier.shutdownNow();
		}
	}

	@Test
	void aFailedDependencyShedsTheRoutesThatRequireItAndNothingElse() {
		this.engine.forceDependency("analytics", DependencyState.FAILED);
		DegradationState state = this.engine.state();
		assertThat(state.level()).isZero();
		assertThat(state.shedTiers()).isEmpty();
		assertThat(state.shedsAnything()).isTrue();
		assertThat(causes(state)).containsExactly("dependency:analytics", null, null, "dependency:analytics");
		assertThat(state.demands()).containsOnlyKeys(DependencySignal.NAME);
		assertThat(state.demands().get(DependencySignal.NAME).reason()).isEqualTo("analytics failed: its routes are shed");
		assertThat(this.levelChanges).isEmpty();
		assertThat(this.shedChanges).singleElement().satisfies((change) -> {
			assertThat(change.shed()).containsExactly("POST /track (dependency:analytics)",
					"GET /reviews (dependency:analytics)");
			assertThat(change.restored()).isEmpty();
		});
	}

	@Test
	void aShedRouteIsCountedUnderTheKindOfTheSignalThatShedItWhateverItsCauseSays() {
		this.engine.forceDependency("recommendations", DependencyState.FAILED);
		// A cause that starts like another kind's: the kind comes from the signal, not the text.
		this.custom.demand = ShedDemand.level(1, "overloaded-db", "the database is being moved");
		DegradationState state = this.engine.evaluate();
		assertThat(causes(state)).containsExactly("overloaded-db", "overloaded-db", "dependency:recommendations", null);
		assertThat(state.shedKind(0)).isEqualTo("test");
		assertThat(state.shedKind(1)).isEqualTo("test");
		assertThat(state.shedKind(2)).isEqualTo(DependencySignal.KIND);
		assertThat(state.shedKind(3)).isNull();
		state = this.engine.simulate(2);
		assertThat(state.shedKind(0)).isEqualTo(SimulationSignal.KIND);
		assertThat(state.shedKind(3)).isEqualTo(SimulationSignal.KIND);
	}

	@Test
	void aSignalWhoseKindIsNotAShortLowercaseTokenIsRefused() {
		TestSignal loud = new TestSignal() {

			@Override
			public String kind() {
				return "Maintenance Window";
			}

		};
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new DegradationEngine(this.manifest, this.clock, List.of(loud), Runnable::run))
			.withMessageContaining("kind of shed signal 'test'")
			.withMessageContaining("'Maintenance Window'");
	}

	@Test
	void aRecoveredDependencyKeepsItsRoutesShedUntilItsHysteresisHasPassed() {
		this.engine.forceDependency("analytics", DependencyState.FAILED);
		this.clock.advance(Duration.ofSeconds(10));
		this.engine.releaseDependency("analytics");
		assertThat(causes(this.engine.state())).containsExactly("dependency:analytics", null, null,
				"dependency:analytics");
		assertThat(this.engine.state().demands().get(DependencySignal.NAME).reason())
			.contains("analytics recovered, held until " + START.plus(HYSTERESIS));
		this.clock.advanceTo(START.plus(HYSTERESIS).minusMillis(1));
		assertThat(this.engine.evaluate().shedsAnything()).isTrue();
		this.clock.advanceTo(START.plus(HYSTERESIS));
		assertThat(this.engine.evaluate().shedsAnything()).isFalse();
		assertThat(this.shedChanges).last()
			.satisfies((change) -> assertThat(change.restored()).containsExactly("POST /track", "GET /reviews"));
	}

	@Test
	void aShedRouteSaysItsFailedDependencyHoldsItAndNotBeforeWhen() {
		probe("analytics", false, false, false);
		Instant shedAt = this.clock.instant();
		assertThat(this.engine.state().holds(0)).containsOnlyKeys(DependencySignal.NAME)
			.extractingByKey(DependencySignal.NAME)
			.satisfies((hold) -> {
				assertThat(hold.rule()).isEqualTo("dependency-failed");
				assertThat(hold.restoresAt()).isNull();
				assertThat(hold.detail()).contains("analytics failed", "recovery_threshold (0.15)",
						"not before " + shedAt.plus(HYSTERESIS));
			});
		assertThat(this.engine.state().holds(1)).isEmpty();
	}

	@Test
	void aRecoveredDependencySaysTheHysteresisHoldsItsRoutesAndUntilWhen() {
		this.engine.forceDependency("analytics", DependencyState.FAILED);
		this.clock.advance(Duration.ofSeconds(10));
		this.engine.releaseDependency("analytics");
		DegradationState state = this.engine.state();
		ShedHold hold = state.holds(3).get(DependencySignal.NAME);
		assertThat(hold.rule()).isEqualTo("dependency-hysteresis");
		assertThat(hold.restoresAt()).isEqualTo(START.plus(HYSTERESIS));
		assertThat(hold.detail()).contains("analytics has recovered", "hysteresis_seconds (90 s, counted from " + START);
		this.clock.advanceTo(hold.restoresAt());
		assertThat(this.engine.evaluate().shedCause(3)).isNull();
		assertThat(this.engine.state().holds(3)).isEmpty();
	}

	@Test
	void aRouteHeldByTwoSignalsNamesBothAndSimulationSaysUntilWhen() {
		this.engine.forceDependency("analytics", DependencyState.FAILED);
		DegradationState state = this.engine.simulate(1, Duration.ofMinutes(15), "ci");
		assertThat(state.holds(0)).containsOnlyKeys(DependencySignal.NAME, SimulationSignal.NAME);
		ShedHold simulation = state.holds(0).get(SimulationSignal.NAME);
		assertThat(simulation.rule()).isEqualTo("simulation");
		assertThat(simulation.restoresAt()).isEqualTo(START.plus(Duration.ofMinutes(15)));
		assertThat(simulation.detail()).contains("set by ci");
		assertThat(simulation.later(state.holds(0).get(DependencySignal.NAME)).restoresAt()).isNull();
		assertThat(state.holds(1)).containsOnlyKeys(SimulationSignal.NAME);
	}

	@Test
	void aSignalThatDoesNotSayWhatHoldsARouteIsShownByItsCauseAndReason() {
		this.custom.demand = ShedDemand.routes(Map.of(1, "maintenance:assign"), "the assignment store is migrated");
		ShedHold hold = this.engine.evaluate().holds(1).get("test");
		assertThat(hold).isEqualTo(new ShedHold("maintenance:assign", "the assignment store is migrated", null));
	}

	@Test
	void eachDependencyHasItsOwnHysteresis() {
		this.engine.forceDependency("analytics", DependencyState.FAILED);
		this.clock.advance(Duration.ofSeconds(60));
		this.engine.forceDependency("recommendations", DependencyState.FAILED);
		this.engine.releaseDependency("analytics");
		this.engine.releaseDependency("recommendations");
		// analytics shed at 0 s, recommendations at 60 s: each is held 90 s from its own start.
		this.clock.advanceTo(START.plus(HYSTERESIS));
		assertThat(causes(this.engine.evaluate())).containsExactly(null, null, "dependency:recommendations", null);
		this.clock.advanceTo(START.plusSeconds(60).plus(HYSTERESIS).minusMillis(1));
		assertThat(causes(this.engine.evaluate())).containsExactly(null, null, "dependency:recommendations", null);
		this.clock.advanceTo(START.plusSeconds(60).plus(HYSTERESIS));
		assertThat(this.engine.evaluate().shedsAnything()).isFalse();
	}

	@Test
	void aDependencyFlappingOnEveryProbeShedsItsRoutesOnce() {
		for (int i = 0; i < 600; i++) {
			probe("recommendations", i % 2 == 0);
		}
		assertThat(causes(this.engine.state())).containsExactly(null, null, "dependency:recommendations", null);
		assertThat(this.shedChanges).hasSize(1);
	}

	@Test
	void aDependencyFlappingInBurstsShedsAndRestoresABoundedNumberOfTimes() {
		Duration total = Duration.ofMinutes(10);
		for (int second = 0; second < total.toSeconds(); second++) {
			probe("recommendations", (second / 15) % 2 == 1);
		}
		long bound = 2 * (total.toSeconds() / HYSTERESIS.toSeconds()) + 1;
		assertThat(this.shedChanges).isNotEmpty().hasSizeLessThanOrEqualTo((int) bound);
	}

	@Test
	void simulationShedsItsLevelAndTheFailedDependenciesStillShedTheirRoutes() {
		this.engine.forceDependency("recommendations", DependencyState.FAILED);
		DegradationState state = this.engine.simulate(1);
		assertThat(state.level()).isEqualTo(1);
		assertThat(causes(state)).containsExactly("simulation", "simulation", "dependency:recommendations", null);
		assertThat(state.demands()).containsOnlyKeys(DependencySignal.NAME, SimulationSignal.NAME);
		assertThat(state.demands().get(SimulationSignal.NAME).reason()).isEqualTo("simulation at level 1");
		assertThat(causes(this.engine.stopSimulation())).containsExactly(null, null, "dependency:recommendations",
				null);
	}

	@Test
	void aSignalOfItsOwnIsCombinedWithTheOthers() {
		this.custom.demand = ShedDemand.routes(Map.of(1, "switch:assign"), "an operator switched it off");
		DegradationState state = this.engine.evaluate();
		assertThat(causes(state)).containsExactly(null, "switch:assign", null, null);
		assertThat(state.demands().get("test").reason()).isEqualTo("an operator switched it off");
		this.custom.demand = ShedDemand.level(2, "overload", "admission saturated");
		state = this.engine.evaluate();
		assertThat(state.level()).isEqualTo(2);
		assertThat(state.computedLevel()).isEqualTo(2);
		assertThat(state.reason()).isEqualTo("admission saturated");
		assertThat(causes(state)).containsOnly("overload");
	}

	@Test
	void theHighestLevelDemandedAppliesAndSimulationReplacesIt() {
		this.custom.demand = ShedDemand.level(1, "overload", "admission saturated");
		this.engine.forceDependency("recommendations", DependencyState.FAILED);
		assertThat(this.engine.evaluate().level()).isEqualTo(1);
		DegradationState simulated = this.engine.simulate(0);
		assertThat(simulated.level()).isZero();
		assertThat(simulated.computedLevel()).isEqualTo(1);
		assertThat(causes(simulated)).containsExactly(null, null, "dependency:recommendations", null);
		assertThat(this.engine.stopSimulation().reason()).isEqualTo("simulation off, computed level 1 applies");
	}

	@Test
	void resetClearsSimulationForcingWindowsAndHysteresis() {
		probe("analytics", false, false, false);
		this.engine.forceDependency("recommendations", DependencyState.FAILED);
		this.engine.releaseDependency("recommendations");
		this.engine.simulate(2);
		assertThat(this.engine.state().shedsAnything()).isTrue();
		DegradationState state = this.engine.reset();
		assertThat(state.level()).isZero();
		assertThat(state.simulation().enabled()).isFalse();
		assertThat(state.shedsAnything()).isFalse();
		assertThat(state.demands()).isEmpty();
		assertThat(this.engine.dependencies()).allSatisfy((status) -> {
			assertThat(status.state()).isEqualTo(DependencyState.UNKNOWN);
			assertThat(status.forced()).isFalse();
			assertThat(status.samples()).isZero();
			assertThat(status.lastProbe()).isNull();
		});
		assertThat(this.custom.resets).isEqualTo(1);
	}

	@Test
	void twoSignalsOfOneNameAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new DegradationEngine(this.manifest, this.clock, List.of(new TestSignal(), new TestSignal()),
					Runnable::run))
			.withMessage("Two shed signals are named 'test'");
	}

	@Test
	void listenersAreToldAfterTheLockIsReleased() {
		List<Boolean> lockHeld = new ArrayList<>();
		this.engine.addListener(new DegradationListener() {

			@Override
			public void levelChanged(LevelChange change) {
				lockHeld.add(Thread.holdsLock(ShedSignalsTests.this.engine));
			}

			@Override
			public void probed(String dependency, ProbeResult result) {
				lockHeld.add(Thread.holdsLock(ShedSignalsTests.this.engine));
			}

		});
		this.engine.simulate(1);
		probe("analytics", true);
		assertThat(lockHeld).containsExactly(false, false);
	}

	@Test
	void aListenerThatBlocksHoldsUpNeitherProbesNorWrites() throws Exception {
		this.notifier = Executors.newSingleThreadExecutor();
		DegradationEngine engine = new DegradationEngine(this.manifest, this.clock, List.of(), this.notifier);
		CountDownLatch release = new CountDownLatch(1);
		List<Integer> levels = new CopyOnWriteArrayList<>();
		engine.addListener(new DegradationListener() {

			@Override
			public void levelChanged(LevelChange change) {
				try {
					release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				levels.add(change.level());
			}

		});
		// The writes run on a thread of their own, so that a write that blocked would fail the
		// bound instead of hanging the test.
		assertThat(CompletableFuture.runAsync(() -> {
			engine.simulate(1);
			for (int i = 0; i < 50; i++) {
				this.clock.advance(Duration.ofSeconds(1));
				engine.recordProbe("analytics", new ProbeResult(false, "http_5xx", "HTTP 500", this.clock.instant(),
						Duration.ofMillis(1)));
			}
			engine.simulate(2);
			engine.stopSimulation();
		})).succeedsWithin(Duration.ofSeconds(5));
		assertThat(engine.dependency("analytics").state()).isEqualTo(DependencyState.FAILED);
		assertThat(levels).isEmpty();
		release.countDown();
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(levels).containsExactly(1, 2, 0));
	}

	@Test
	void aNewManifestKeepsWhatIsKnownOfUnchangedDependencies() {
		probe("recommendations", false, false, false);
		this.engine.forceDependency("analytics", DependencyState.FAILED);
		DegradationManifest next = ManifestLoader.standard().load("next.yaml", """
				defaults:
				  health_check_interval_ms: 1000
				  window_seconds: 10
				  min_samples: 3
				  hysteresis_seconds: 90
				dependencies:
				  analytics: { health_url: "http://127.0.0.1:1/moved" }
				  recommendations: { health_url: "http://127.0.0.1:1/recommendations" }
				tiers:
				  enhanced:
				    priority: 1
				    routes:
				      - { path: /other, method: GET, fallback: drop }
				      - { path: /recommendations, method: GET, fallback: drop, requires: [recommendations] }
				""".getBytes(StandardCharsets.UTF_8));
		DegradationState state = this.engine.replace(next);
		assertThat(this.engine.dependency("recommendations").state()).isEqualTo(DependencyState.FAILED);
		assertThat(this.engine.dependency("recommendations").samples()).isEqualTo(3);
		assertThat(this.engine.dependency("analytics").state()).as("its health URL changed")
			.isEqualTo(DependencyState.UNKNOWN);
		assertThat(state.shedCause(0)).isNull();
		assertThat(state.shedCause(1)).isEqualTo("dependency:recommendations");
	}

	private static List<String> causes(DegradationState state) {
		List<String> causes = new ArrayList<>();
		for (int route = 0; route < 4; route++) {
			causes.add(state.shedCause(route));
		}
		return causes;
	}

	private void probe(String dependency, boolean... outcomes) {
		for (boolean healthy : outcomes) {
			this.clock.advance(Duration.ofSeconds(1));
			this.engine.recordProbe(dependency, new ProbeResult(healthy, healthy ? ProbeResult.OK : "http_5xx",
					healthy ? "HTTP 200" : "HTTP 500", this.clock.instant(), Duration.ofMillis(2)));
		}
	}

	/**
	 * A signal whose demand the test sets, as a later source (overload, switches) would.
	 */
	static class TestSignal implements ShedSignal {

		volatile ShedDemand demand = ShedDemand.NONE;

		int resets;

		@Override
		public String name() {
			return "test";
		}

		@Override
		public String kind() {
			return "test";
		}

		@Override
		public ShedDemand demand(Instant now) {
			return this.demand;
		}

		@Override
		public void reset() {
			this.demand = ShedDemand.NONE;
			this.resets++;
		}

	}

}
