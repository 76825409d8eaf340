package dev.degradation.monitor;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.CallBudget;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.HealthCheck;
import dev.degradation.manifest.Position;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every breaker transition as evidence of a dependency's state, with time moved by the test: an
 * open breaker fails the dependency at once and no probe overrides it; half-open is a trial, not
 * health: only the probes since the open judge (failing: failed; within the recovery band:
 * healthy; too few, or none: unknown while calls make the trial); a trial that closes the breaker
 * is evidence of health; a breaker closed without a trial leaves the judgement to the probes; a
 * forced state wins.
 */
class DependencyMonitorBreakerTests {

	private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

	private static final HealthCheck HEALTH_CHECK = new HealthCheck(Duration.ofSeconds(1), Duration.ofMillis(500),
			Duration.ofSeconds(10), 3, 0.4, 0.15);

	private final TestClock clock = TestClock.at(START);

	private final DependencyMonitor probed = new DependencyMonitor(new Dependency("catalog",
			URI.create("http://127.0.0.1:1/healthz"), HEALTH_CHECK, new Position(1, 1)), this.clock);

	private final DependencyMonitor unprobed = new DependencyMonitor(new Dependency("payments", null, HEALTH_CHECK,
			new Position(1, 1), null, URI.create("http://127.0.0.1:1/pay"), CallBudget.standard(Duration.ofSeconds(1))),
			this.clock);

	@Test
	void anOpenBreakerFailsAHealthyDependencyAtOnce() {
		probes(this.probed, true, true, true);
		assertThat(this.probed.state()).isEqualTo(DependencyState.HEALTHY);
		DependencyStateChange change = this.probed.recordBreaker(BreakerState.OPEN);
		assertThat(change).isNotNull();
		assertThat(change.previous()).isEqualTo(DependencyState.HEALTHY);
		assertThat(change.state()).isEqualTo(DependencyState.FAILED);
		assertThat(change.reason()).isEqualTo("circuit breaker open: calls fail or are slow");
	}

	@Test
	void theStatusSaysWhatTheBreakerLastReportedAndWhen() {
		assertThat(this.probed.status().breaker()).isEqualTo(BreakerState.CLOSED);
		assertThat(this.probed.status().breakerChangedAt()).isNull();
		this.clock.advance(Duration.ofSeconds(3));
		this.probed.recordBreaker(BreakerState.OPEN);
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(this.probed.status().breaker()).isEqualTo(BreakerState.OPEN);
		assertThat(this.probed.status().breakerChangedAt()).isEqualTo(START.plusSeconds(3));
		this.probed.recordBreaker(BreakerState.HALF_OPEN);
		assertThat(this.probed.status().breaker()).isEqualTo(BreakerState.HALF_OPEN);
		assertThat(this.probed.status().breakerChangedAt()).isEqualTo(START.plusSeconds(8));
		this.probed.reset();
		assertThat(this.probed.status().breaker()).isEqualTo(BreakerState.CLOSED);
		assertThat(this.probed.status().breakerChangedAt()).isNull();
	}

	@Test
	void whileTheBreakerIsOpenNoHealthyProbeOverridesIt() {
		probes(this.probed, true, true, true);
		this.probed.recordBreaker(BreakerState.OPEN);
		assertThat(probes(this.probed, true, true, true, true)).isNull();
		this.clock.advance(Duration.ofSeconds(30));
		assertThat(this.probed.refresh()).isNull();
		assertThat(this.probed.state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void halfOpenIsATrialNotHealth() {
		probes(this.probed, true, true, true);
		this.probed.recordBreaker(BreakerState.OPEN);
		// The healthy probes predate the failure: they prove nothing of a recovery. Too few probes
		// since the open to judge: unknown, so that calls can make the trial.
		DependencyStateChange trial = this.probed.recordBreaker(BreakerState.HALF_OPEN);
		assertThat(trial).isNotNull();
		assertThat(trial.state()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(trial.reason()).isEqualTo("circuit breaker half-open: trial calls let through");
		this.clock.advance(Duration.ofSeconds(30));
		assertThat(this.probed.refresh()).isNull();
		assertThat(this.probed.state()).isEqualTo(DependencyState.UNKNOWN);
	}

	@Test
	void halfOpenWithFailingProbesSinceTheOpenStaysFailed() {
		probes(this.probed, true, true, true);
		this.probed.recordBreaker(BreakerState.OPEN);
		probes(this.probed, false, false, false);
		assertThat(this.probed.recordBreaker(BreakerState.HALF_OPEN)).isNull();
		assertThat(probes(this.probed, false, false, false)).isNull();
		assertThat(this.probed.state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void halfOpenRecoversOnceTheProbesSinceTheOpenAreWithinTheRecoveryBand() {
		probes(this.probed, false, false, false);
		this.probed.recordBreaker(BreakerState.OPEN);
		this.probed.recordBreaker(BreakerState.HALF_OPEN);
		// Two probes since the open are too few to judge (min_samples 3).
		assertThat(probes(this.probed, true, true)).isNull();
		assertThat(this.probed.state()).isEqualTo(DependencyState.UNKNOWN);
		DependencyStateChange change = probes(this.probed, true);
		assertThat(change).isNotNull();
		assertThat(change.previous()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(change.state()).isEqualTo(DependencyState.HEALTHY);
		assertThat(change.reason()).startsWith("probe ok");
	}

	@Test
	void halfOpenStaysFailedWhileTheProbesSinceTheOpenAreInTheBandBetween() {
		this.probed.recordBreaker(BreakerState.OPEN);
		// One failure in four: 25 %, above recovery_threshold (15 %), below failure_threshold.
		probes(this.probed, false, true, true, true);
		assertThat(this.probed.recordBreaker(BreakerState.HALF_OPEN)).isNull();
		assertThat(this.probed.state()).isEqualTo(DependencyState.FAILED);
		// The failure ages out of the window; the healthy probes since the open remain.
		this.clock.advance(Duration.ofSeconds(7));
		DependencyStateChange change = this.probed.refresh();
		assertThat(change).isNotNull();
		assertThat(change.state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void halfOpenWithTooFewProbesTurnsFailedAgainOnFailingOnes() {
		this.probed.recordBreaker(BreakerState.OPEN);
		assertThat(this.probed.recordBreaker(BreakerState.HALF_OPEN).state()).isEqualTo(DependencyState.UNKNOWN);
		DependencyStateChange change = probes(this.probed, false, false, false);
		assertThat(change).isNotNull();
		assertThat(change.state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void onceRecoveredDuringHalfOpenFailuresFromBeforeTheOpenDoNotFailItAgain() {
		probes(this.probed, false, false, false);
		this.probed.recordBreaker(BreakerState.OPEN);
		this.probed.recordBreaker(BreakerState.HALF_OPEN);
		assertThat(probes(this.probed, true, true, true).state()).isEqualTo(DependencyState.HEALTHY);
		// Three failures in seven over the whole window (43 %, above failure_threshold): older
		// than the open, they are no evidence against the probes since.
		assertThat(probes(this.probed, true)).isNull();
		assertThat(this.probed.state()).isEqualTo(DependencyState.HEALTHY);
		// Failing probes since the open fail it again.
		DependencyStateChange change = probes(this.probed, false, false, false);
		assertThat(change).isNotNull();
		assertThat(change.state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void probesWithinTheBandWhileOpenRecoverAtHalfOpen() {
		this.probed.recordBreaker(BreakerState.OPEN);
		assertThat(probes(this.probed, true, true, true)).isNull();
		DependencyStateChange change = this.probed.recordBreaker(BreakerState.HALF_OPEN);
		assertThat(change).isNotNull();
		assertThat(change.state()).isEqualTo(DependencyState.HEALTHY);
		assertThat(change.reason())
			.isEqualTo("circuit breaker half-open: probes since it opened are within the recovery band");
	}

	@Test
	void aFailedTrialFailsTheDependencyAgain() {
		probes(this.probed, true, true, true);
		this.probed.recordBreaker(BreakerState.OPEN);
		assertThat(this.probed.recordBreaker(BreakerState.HALF_OPEN).state()).isEqualTo(DependencyState.UNKNOWN);
		DependencyStateChange change = this.probed.recordBreaker(BreakerState.OPEN);
		assertThat(change).isNotNull();
		assertThat(change.previous()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(change.state()).isEqualTo(DependencyState.FAILED);
	}

	@Test
	void aTrialThatClosesTheBreakerIsEvidenceOfHealthAndStartsTheWindowAnew() {
		probes(this.probed, false, false, false);
		this.probed.recordBreaker(BreakerState.OPEN);
		this.probed.recordBreaker(BreakerState.HALF_OPEN);
		DependencyStateChange change = this.probed.recordBreaker(BreakerState.CLOSED);
		assertThat(change).isNotNull();
		assertThat(change.previous()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(change.state()).isEqualTo(DependencyState.HEALTHY);
		assertThat(change.reason()).isEqualTo("circuit breaker closed: trial calls succeeded");
		assertThat(this.probed.status().samples()).isZero();
		assertThat(probes(this.probed, true)).isNull();
		assertThat(this.probed.state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void aBreakerClosedWithoutATrialLeavesTheJudgementToTheProbes() {
		probes(this.probed, true, true, true);
		this.probed.recordBreaker(BreakerState.OPEN);
		assertThat(this.probed.recordBreaker(BreakerState.CLOSED).state()).isEqualTo(DependencyState.HEALTHY);
		this.unprobed.recordBreaker(BreakerState.OPEN);
		assertThat(this.unprobed.recordBreaker(BreakerState.CLOSED).state()).isEqualTo(DependencyState.UNKNOWN);
	}

	@Test
	void anUnprobedDependencyIsJudgedByItsBreakerAlone() {
		// No evidence until the breaker has something to say.
		assertThat(this.unprobed.state()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(this.unprobed.recordBreaker(BreakerState.OPEN).state()).isEqualTo(DependencyState.FAILED);
		// A trial: not failed, so that calls can make it, and not healthy.
		DependencyStateChange trial = this.unprobed.recordBreaker(BreakerState.HALF_OPEN);
		assertThat(trial.state()).isEqualTo(DependencyState.UNKNOWN);
		assertThat(trial.reason()).isEqualTo("circuit breaker half-open: trial calls let through");
		assertThat(this.unprobed.recordBreaker(BreakerState.OPEN).state()).isEqualTo(DependencyState.FAILED);
		this.unprobed.recordBreaker(BreakerState.HALF_OPEN);
		assertThat(this.unprobed.recordBreaker(BreakerState.CLOSED).state()).isEqualTo(DependencyState.HEALTHY);
	}

	@Test
	void aForcedStateWinsOverTheBreaker() {
		probes(this.probed, true, true, true);
		this.probed.force(DependencyState.HEALTHY);
		assertThat(this.probed.recordBreaker(BreakerState.OPEN)).isNull();
		assertThat(this.probed.state()).isEqualTo(DependencyState.HEALTHY);
		DependencyStateChange released = this.probed.release();
		assertThat(released).isNotNull();
		assertThat(released.state()).isEqualTo(DependencyState.FAILED);
	}

	private DependencyStateChange probes(DependencyMonitor monitor, boolean... outcomes) {
		DependencyStateChange last = null;
		for (boolean healthy : outcomes) {
			this.clock.advance(Duration.ofSeconds(1));
			DependencyStateChange change = monitor.record(new ProbeResult(healthy, healthy ? ProbeResult.OK : "http_5xx",
					healthy ? "HTTP 200" : "HTTP 500", this.clock.instant(), Duration.ofMillis(3)));
			last = (change != null) ? change : last;
		}
		return last;
	}

}
