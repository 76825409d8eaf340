package dev.degradation.client;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.degradation.client.CallTime.CallEnd;
import dev.degradation.manifest.BreakerPolicy;
import dev.degradation.manifest.CallBudget;
import dev.degradation.manifest.RetryPolicy;
import dev.degradation.testapp.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deadline arithmetic of a dependency's guarded calls, with a clock the test moves.
 */
class CallTimeTests {

	private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

	private final MutableClock clock = new MutableClock(NOW);

	private final Duration timeout = Duration.ofSeconds(1);

	private final CallTime time = new CallTime(new CallBudget(this.timeout, BreakerPolicy.standard(this.timeout),
			new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(3),
					RetryPolicy.IDEMPOTENT_METHODS)),
			this.clock);

	@Test
	void aCallEndsAfterItsTimeLimitOrItsRetryBudgetLessTheAnswersReserve() {
		assertThat(this.time.end(false, null)).isEqualTo(new CallEnd(NOW.plusMillis(1000 - 20), false));
		assertThat(this.time.end(true, null)).isEqualTo(new CallEnd(NOW.plusMillis(3000 - 20), false));
	}

	@Test
	void anEarlierDeadlineOfTheRequestEndsTheCallAndIsTheCallersDoing() {
		CallEnd end = this.time.end(true, NOW.plusMillis(500));
		assertThat(end).isEqualTo(new CallEnd(NOW.plusMillis(500 - 10), true));
		Duration limit = this.time.attemptLimit(this.time.timeLeft(end.at()));
		assertThat(limit).isEqualTo(Duration.ofMillis(490));
		assertThat(this.time.cutShortByCaller(end, limit)).isTrue();
		assertThat(this.time.cutShortByCaller(end, this.timeout)).isFalse();
		assertThat(this.time.cutShortByCaller(this.time.end(false, null), Duration.ofMillis(490))).isFalse();
	}

	@Test
	void aPassedDeadlineLeavesNoTime() {
		CallEnd end = this.time.end(false, NOW.minusMillis(1));
		assertThat(end.at()).isEqualTo(NOW.minusMillis(1));
		assertThat(this.time.timeLeft(end.at())).isNegative();
	}

	@Test
	void anAttemptTakesItsTimeLimitOrTheTimeLeftWhenThatIsShorter() {
		assertThat(this.time.attemptLimit(Duration.ofSeconds(5))).isEqualTo(this.timeout);
		assertThat(this.time.attemptLimit(Duration.ofMillis(300))).isEqualTo(Duration.ofMillis(300));
	}

	@Test
	void aRetrysWaitBeginsOnlyWhenItEndsBeforeTheCall() {
		Instant end = NOW.plusMillis(1000);
		assertThat(this.time.mayWait(-1, end)).isFalse();
		assertThat(this.time.mayWait(999, end)).isTrue();
		assertThat(this.time.mayWait(1000, end)).isFalse();
		this.clock.advance(Duration.ofMillis(500));
		assertThat(this.time.mayWait(499, end)).isTrue();
		assertThat(this.time.mayWait(500, end)).isFalse();
	}

	@Test
	void theAnswersReserveIsTwoPercentAtMostTwentyMilliseconds() {
		assertThat(CallTime.answerReserve(Duration.ofMillis(500))).isEqualTo(Duration.ofMillis(10));
		assertThat(CallTime.answerReserve(Duration.ofSeconds(2))).isEqualTo(Duration.ofMillis(20));
	}

}
