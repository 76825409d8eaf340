package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.overload.Admission;
import dev.degradation.overload.Deadline;
import dev.degradation.testapp.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

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

	private final MutableClock clock = new MutableClock(START);

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
		fill(admission);
		saturate(admission);
		evaluateAfter(Duration.ofSeconds(1));
		saturate(admission);
		evaluateAfter(Duration.ofSeconds(1));
		assertThat(this.engine.state().level()).isEqualTo(5);
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

	private void fill(Admission admission) {
		for (int i = 0; i < 3; i++) {
			admission.decide(admission.coreRank(), Deadline.NONE);
		}
	}

	private void saturate(Admission admission) {
		assertThat(admission.decide(admission.coreRank(), Deadline.NONE)).isEqualTo(Admission.NotAdmitted.REFUSED);
	}

	private DegradationState evaluateAfter(Duration duration) {
		this.clock.advance(duration);
		return this.engine.evaluate();
	}

}
