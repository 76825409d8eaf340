package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.overload.Admission;
import dev.degradation.overload.Deadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The overload signal with a test clock: while admission is saturated it raises the level one
 * tier per evaluation; once it has room the level comes down one tier per hysteresis.
 */
class OverloadSignalTests {

	private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

	private static final String MANIFEST = """
			overload:
			  concurrency_limit: 3
			  max_queue_ms: 0
			  hysteresis_seconds: 10
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /track, method: POST, fallback: drop }
			  enhanced:
			    priority: 5
			    routes:
			      - { path: /recommendations, method: GET, fallback: drop }
			""";

	private final TestClock clock = TestClock.at(START);

	private final DegradationManifest manifest = ManifestLoader.standard()
		.load("test.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));

	private final OverloadSignal overload = new OverloadSignal(this.manifest, System::nanoTime, this.clock);

	private final DegradationEngine engine = new DegradationEngine(this.manifest, this.clock, List.of(this.overload),
			Runnable::run);

	@Test
	void requestsReadOneSnapshotOfTheRanksTheRetryAfterAndTheRefusalStatus() {
		OverloadSignal.Active active = this.overload.active();
		assertThat(active).isNotNull();
		assertThat(active.admission()).isSameAs(this.overload.admission());
		assertThat(active.rank(1)).isZero();
		assertThat(active.rank(5)).isEqualTo(1);
		assertThat(active.retryAfterHeader()).isEqualTo("1");
		assertThat(active.refusalStatus()).isEqualTo(503);
	}

	@Test
	void withoutAnOverloadSectionThereIsNoAdmission() {
		DegradationManifest plain = ManifestLoader.standard()
			.load("plain.yaml", "tiers: { a: { priority: 1, routes: [ { path: /a, method: GET, fallback: drop } ] } }"
				.getBytes(StandardCharsets.UTF_8));
		assertThat(new OverloadSignal(plain, System::nanoTime, this.clock).admission()).isNull();
	}

	@Test
	void whileSaturatedTheLevelRisesOneTierPerEvaluation() {
		Admission admission = this.overload.admission();
		assertThat(admission.limit()).isEqualTo(3);
		assertThat(this.overload.rank(1)).isZero();
		assertThat(this.overload.rank(5)).isEqualTo(1);
		fill(admission);
		saturate(admission);
		assertThat(evaluateAfter(Duration.ofSeconds(1)).level()).isEqualTo(1);
		saturate(admission);
		DegradationState state = evaluateAfter(Duration.ofSeconds(1));
		assertThat(state.level()).isEqualTo(5);
		assertThat(state.shedCause(0)).isEqualTo("overload");
		assertThat(state.shedCause(1)).isEqualTo("overload");
		saturate(admission);
		assertThat(evaluateAfter(Duration.ofSeconds(1)).level()).as("the highest tier").isEqualTo(5);
	}

	@Test
	void withRoomAgainTheLevelComesDownOneTierPerHysteresis() {
		Admission admission = this.overload.admission();
		List<Admission.Admitted> held = fill(admission);
		saturate(admission);
		evaluateAfter(Duration.ofSeconds(1));
		saturate(admission);
		evaluateAfter(Duration.ofSeconds(1));
		assertThat(this.engine.state().level()).isEqualTo(5);
		held.forEach(Admission.Admitted::onSuccess);
		assertThat(evaluateAfter(Duration.ofSeconds(9)).level()).isEqualTo(5);
		assertThat(evaluateAfter(Duration.ofSeconds(1)).level()).isEqualTo(1);
		assertThat(evaluateAfter(Duration.ofSeconds(10)).level()).isZero();
	}

	@Test
	void theRatesOfTheLastEvaluationAreKept() {
		Admission admission = this.overload.admission();
		evaluateAfter(Duration.ofSeconds(1));
		fill(admission);
		saturate(admission);
		evaluateAfter(Duration.ofSeconds(2));
		assertThat(this.overload.rates().admitted()).isEqualTo(1.5);
		assertThat(this.overload.rates().refused()).isEqualTo(0.5);
	}

	@Test
	void theRatesSpanTheLastTenSecondsNotTheTimeSinceTheLastEvaluation() {
		Admission admission = this.overload.admission();
		evaluateAfter(Duration.ofSeconds(1));
		for (int second = 0; second < 20; second++) {
			admission.decide(admission.coreRank(), Deadline.PASSED);
			evaluateAfter(Duration.ofSeconds(1));
		}
		assertThat(this.overload.rates().refused()).as("one a second").isEqualTo(1.0);
		for (int i = 0; i < 13; i++) {
			admission.decide(admission.coreRank(), Deadline.PASSED);
		}
		evaluateAfter(Duration.ofMillis(10));
		assertThat(this.overload.rates().refused()).as("13 more over the last ten seconds, not over 10 ms")
			.isCloseTo(23.0 / 10.01, within(0.01));
	}

	@Test
	void aRequestWhoseDeadlineHasPassedMovesNoLevel() {
		Admission admission = this.overload.admission();
		for (int i = 0; i < 100; i++) {
			assertThat(admission.decide(admission.coreRank(), Deadline.PASSED))
				.isEqualTo(Admission.NotAdmitted.DEADLINE_PASSED);
			assertThat(evaluateAfter(Duration.ofSeconds(1)).level()).isZero();
		}
	}

	@Test
	void aRequestTurnedAwayByItsTiersShareWhilePlacesAreFreeMovesNoLevel() {
		Admission admission = this.overload.admission();
		// Limit 3, two tiers: the lowest tier's share is one place, so a second best-effort request is
		// shed while a place is still free.
		assertThat(admission.decide(0, Deadline.NONE)).isInstanceOf(Admission.Admitted.class);
		for (int i = 0; i < 50; i++) {
			assertThat(admission.decide(0, Deadline.NONE)).isEqualTo(Admission.NotAdmitted.SHED);
			assertThat(evaluateAfter(Duration.ofSeconds(1)).level()).isZero();
		}
	}

	@Test
	void aCoreRequestWhoseCallerLoweredItsPriorityMovesNoLevelWhilePlacesAreFree() {
		Admission admission = this.overload.admission();
		assertThat(admission.decide(0, Deadline.NONE)).isInstanceOf(Admission.Admitted.class);
		for (int i = 0; i < 50; i++) {
			assertThat(admission.decide(0, false, Deadline.NONE)).isEqualTo(Admission.NotAdmitted.REFUSED);
			assertThat(evaluateAfter(Duration.ofSeconds(1)).level()).isZero();
		}
	}

	@Test
	void everyPlaceTakenIsSaturationEvenWhenNoRequestWasTurnedAway() {
		fill(this.overload.admission());
		assertThat(evaluateAfter(Duration.ofSeconds(1)).level()).isEqualTo(1);
		assertThat(this.engine.state().reason()).contains("admission saturated (limit 3, 3 in flight, 0 waiting)");
	}

	@Test
	void aRequestThatFoundEveryPlaceTakenIsSaturationAfterThePlacesFreed() {
		Admission admission = this.overload.admission();
		List<Admission.Admitted> held = fill(admission);
		assertThat(admission.decide(0, Deadline.NONE)).isEqualTo(Admission.NotAdmitted.SHED);
		held.forEach(Admission.Admitted::onSuccess);
		assertThat(admission.saturated()).isFalse();
		assertThat(evaluateAfter(Duration.ofSeconds(1)).level()).isEqualTo(1);
	}

	@Test
	void aReloadWithOtherTiersRanksThemAnew() {
		Admission before = this.overload.admission();
		DegradationManifest sameTiers = ManifestLoader.standard().load("same.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));
		this.engine.replace(sameTiers);
		assertThat(this.overload.admission()).as("same section, same tiers: admission goes on").isSameAs(before);
		DegradationManifest threeTiers = ManifestLoader.standard()
			.load("three.yaml", (MANIFEST + """
					  extras:
					    priority: 9
					    routes:
					      - { path: /extras, method: GET, fallback: drop }
					""").getBytes(StandardCharsets.UTF_8));
		this.engine.replace(threeTiers);
		Admission after = this.overload.admission();
		assertThat(after).isNotSameAs(before);
		assertThat(after.coreRank()).isEqualTo(3);
		assertThat(this.overload.rank(9)).isEqualTo(2);
	}

	private List<Admission.Admitted> fill(Admission admission) {
		List<Admission.Admitted> held = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			held.add((Admission.Admitted) admission.decide(admission.coreRank(), Deadline.NONE));
		}
		return held;
	}

	private void saturate(Admission admission) {
		assertThat(admission.decide(admission.coreRank(), Deadline.NONE)).isEqualTo(Admission.NotAdmitted.REFUSED);
	}

	private DegradationState evaluateAfter(Duration duration) {
		this.clock.advance(duration);
		return this.engine.evaluate();
	}

}
