package dev.degradation.monitor;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.HealthCheck;
import dev.degradation.manifest.Position;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every transition of a dependency's state, with time moved by the test: unknown until enough
 * results, failed at the threshold and not before, steady inside the band, recovered only at the
 * recovery threshold, and forced states over all of it.
 */
class DependencyMonitorTests {

	private static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

	// Probes every second over a 10 s window; failed at 40 %, recovered at 15 %, judged from 3 results.
	private static final HealthCheck HEALTH_CHECK = new HealthCheck(Duration.ofSeconds(1), Duration.ofMillis(500),
			Duration.ofSeconds(10), 3, 0.4, 0.15);

	private final TestClock clock = TestClock.at(START);

	private final DependencyMonitor monitor = new DependencyMonitor(new Dependency("catalog",
			URI.create("http://127.0.0.1:1/healthz"), HEALTH_CHECK, new Position(1, 1)), this.clock);

	@Test
	void withNoResultsTheDependencyIsUnknown() {
		DependencyStatus status = this.monitor.status();
		assertThat(status.state()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(status.samples()).isZero();
		assertThat(status.errorRate()).isZero();
		assertThat(status.lastProbe()).isNull();
	}

	@Test
	void staysUnknownUntilMinSamplesEvenWhenEveryProbeFails() {
		assertThat(probe(false)).isNull();
		assertThat(probe(false)).isNull();
		assertThat(this.monitor.state()).isEqualTo(DependencyState.UNKNOWN);
		DependencyStateChange change = probe(false);
		assertThat(change).isNotNull();
		assertThat(change.previous()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(change.state()).isEqualTo(DependencyState.FAILED);
		assertThat(change.reason()).contains("error rate 100.0% over 3 probes");
	}

	@Test
	void aHealthUrlThatIsNotServedIsNoEvidenceAndShedsNothing() {
		for (int i = 0; i < 10; i++) {
			this.clock.advance(Duration.ofMillis(500));
			assertThat(this.monitor.record(new ProbeResult(false, ProbeResult.outcomeOf(404), "HTTP 404",
					this.clock.instant(), Duration.ofMillis(3)))).isNull();
		}
		assertThat(this.monitor.state()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(this.monitor.status().samples()).isZero();
		assertThat(this.monitor.status().lastProbe().outcome()).isEqualTo(ProbeResult.NOT_FOUND);
		assertThat(ProbeResult.outcomeOf(410)).isEqualTo("http_4xx");
		assertThat(ProbeResult.outcomeOf(503)).isEqualTo("http_5xx");
	}

	@Test
	void theChangeToFailedSaysWhyTheLastProbeFailed() {
		probe(false);
		probe(false);
		this.clock.advance(Duration.ofSeconds(1));
		DependencyStateChange change = this.monitor.record(new ProbeResult(false, ProbeResult.ERROR,
				"no health contributor named 'database'", this.clock.instant(), Duration.ofMillis(1)));
		assertThat(change).isNotNull();
		assertThat(change.reason())
			.isEqualTo("probe error (no health contributor named 'database'): error rate 100.0% over 3 probes");
	}

	@Test
	void becomesHealthyOnceMinSamplesAreInBelowTheFailureThreshold() {
		probe(true);
		probe(false);
		assertThat(this.monitor.state()).isEqualTo(DependencyState.UNKNOWN);
		DependencyStateChange change = probe(true);
		assertThat(change.state()).isEqualTo(DependencyState.HEALTHY);
		assertThat(this.monitor.status().errorRate()).isEqualTo(1.0 / 3);
	}

	@Test
	void failsAtTheFailureThresholdAndNotBefore() {
		probes(true, true, true, true, true);
		assertThat(this.monitor.state()).isEqualTo(DependencyState.HEALTHY);
		// 2 failures of 6 results: 33 %, below 40 %
		assertThat(probe(false)).isNull();
		assertThat(probe(false)).isNull();
		assertThat(this.monitor.status().errorRate()).isEqualTo(2.0 / 7);
		// 3 of 8: 37.5 %
		assertThat(probe(false)).isNull();
		assertThat(this.monitor.state()).isEqualTo(DependencyState.HEALTHY);
		// 4 of 9: 44 %, at or above 40 %
		DependencyStateChange change = probe(false);
		assertThat(change.state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void failsWhenTheErrorRateEqualsTheThresholdExactly() {
		probes(true, true, true);
		assertThat(probe(false)).isNull();
		// 2 of 5 = 40 % exactly
		assertThat(probe(false).state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void aHealthyDependencyInsideTheBandStaysHealthy() {
		probes(true, true, true, true, true, true, true);
		// 2 of 9 = 22 %: above recovery, below failure
		probes(false, false);
		assertThat(this.monitor.state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void aFailedDependencyInsideTheBandStaysFailedAndRecoversOnlyAtTheRecoveryThreshold() {
		probes(false, false, false);
		assertThat(this.monitor.state()).isEqualTo(DependencyState.FAILED);
		// 3 of 7 = 43 %, 3 of 8 = 37.5 %, ... 3 of 10 = 30 %: inside the band, still failed
		for (int i = 0; i < 7; i++) {
			assertThat(probe(true)).isNull();
		}
		assertThat(this.monitor.status().errorRate()).isEqualTo(0.3);
		assertThat(this.monitor.state()).isEqualTo(DependencyState.FAILED);
		// The window holds 10 s: the first failure ages out, 2 of 10 = 20 %, still above 15 %
		assertThat(probe(true)).isNull();
		assertThat(this.monitor.status().errorRate()).isEqualTo(0.2);
		// 1 of 10 = 10 %: at or below 15 %
		DependencyStateChange change = probe(true);
		assertThat(change.previous()).isEqualTo(DependencyState.FAILED);
		assertThat(change.state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void recoversWhenTheErrorRateEqualsTheRecoveryThresholdExactly() {
		HealthCheck exact = new HealthCheck(Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofSeconds(100), 3,
				0.5, 0.25);
		DependencyMonitor monitor = new DependencyMonitor(
				new Dependency("exact", URI.create("http://127.0.0.1:1/"), exact, new Position(1, 1)), this.clock);
		record(monitor, false);
		record(monitor, false);
		record(monitor, true);
		assertThat(monitor.state()).isEqualTo(DependencyState.FAILED);
		record(monitor, true);
		record(monitor, true);
		record(monitor, true);
		record(monitor, true);
		assertThat(monitor.status().errorRate()).isEqualTo(2.0 / 7);
		assertThat(monitor.state()).isEqualTo(DependencyState.FAILED);
		record(monitor, true);
		// 2 of 8 = 25 % exactly
		assertThat(monitor.state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void resultsOlderThanTheWindowNoLongerCount() {
		probes(false, false, false);
		assertThat(this.monitor.state()).isEqualTo(DependencyState.FAILED);
		this.clock.advance(Duration.ofSeconds(10));
		DependencyStatus status = this.monitor.status();
		assertThat(status.samples()).isZero();
		// Too few results to judge: the last conclusion stands rather than flipping to unknown.
		assertThat(status.state()).isEqualTo(DependencyState.FAILED);
		assertThat(this.monitor.refresh()).isNull();
	}

	@Test
	void refreshRecoversADependencyWhoseFailuresAgedOut() {
		probes(false, false, false);
		probes(true, true, true, true, true, true);
		assertThat(this.monitor.state()).isEqualTo(DependencyState.FAILED);
		// Failures at 1, 2, 3 s and successes at 4..9 s. At 11 s the first failure is out: 2 of 8 =
		// 25 %, still failed. At 12 s the second is out too: 1 of 7 = 14.3 %, recovered.
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.monitor.refresh()).isNull();
		this.clock.advance(Duration.ofSeconds(1));
		DependencyStateChange change = this.monitor.refresh();
		assertThat(change).isNotNull();
		assertThat(change.state()).isEqualTo(DependencyState.HEALTHY);
		assertThat(change.reason()).isEqualTo("window aged: error rate 14.3% over 7 probes");
	}

	@Test
	void forcingOverridesTheProbesUntilReleased() {
		probes(true, true, true);
		DependencyStateChange forced = this.monitor.force(DependencyState.FAILED);
		assertThat(forced.state()).isEqualTo(DependencyState.FAILED);
		assertThat(forced.reason()).isEqualTo("forced FAILED");
		assertThat(probe(true)).isNull();
		DependencyStatus status = this.monitor.status();
		assertThat(status.state()).isEqualTo(DependencyState.FAILED);
		assertThat(status.computedState()).isEqualTo(DependencyState.HEALTHY);
		assertThat(status.forced()).isTrue();
		DependencyStateChange released = this.monitor.release();
		assertThat(released.state()).isEqualTo(DependencyState.HEALTHY);
		assertThat(this.monitor.status().forced()).isFalse();
	}

	@Test
	void forcingTheStateItAlreadyHasIsNoChange() {
		assertThat(this.monitor.force(DependencyState.UNKNOWN)).isNull();
		assertThat(this.monitor.release()).isNull();
	}

	@Test
	void theLastProbeIsKept() {
		ProbeResult result = new ProbeResult(false, ProbeResult.TIMEOUT, "no answer within 500 ms", START,
				Duration.ofMillis(501));
		this.monitor.record(result);
		assertThat(this.monitor.status().lastProbe()).isEqualTo(result);
	}

	private void probes(boolean... outcomes) {
		for (boolean healthy : outcomes) {
			probe(healthy);
		}
	}

	private DependencyStateChange probe(boolean healthy) {
		return record(this.monitor, healthy);
	}

	private DependencyStateChange record(DependencyMonitor monitor, boolean healthy) {
		this.clock.advance(Duration.ofSeconds(1));
		return monitor.record(new ProbeResult(healthy, healthy ? ProbeResult.OK : "http_5xx",
				healthy ? "HTTP 200" : "HTTP 500", this.clock.instant(), Duration.ofMillis(3)));
	}

}
