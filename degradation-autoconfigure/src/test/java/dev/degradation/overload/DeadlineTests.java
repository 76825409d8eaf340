package dev.degradation.overload;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one deadline rule of admission and guarded calls: absent or unreadable is none, 0 or less
 * has passed, above the maximum is the maximum.
 */
class DeadlineTests {

	private static final Duration MAX = Duration.ofSeconds(30);

	@Test
	void aReadableDeadlineIsTheTimeTheCallerStillWaits() {
		assertThat(Deadline.remainingNanos("1000", MAX)).isEqualTo(TimeUnit.SECONDS.toNanos(1));
		assertThat(Deadline.remainingNanos(" 250 ", MAX)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
		assertThat(Deadline.remaining("250", MAX)).isEqualTo(Duration.ofMillis(250));
	}

	@Test
	void aDeadlineOfACenturyCountsAsTheMaximum() {
		assertThat(Deadline.remainingNanos("3155760000000", MAX)).isEqualTo(MAX.toNanos());
		assertThat(Deadline.remaining("3155760000000", MAX)).isEqualTo(MAX);
		assertThat(Deadline.remainingNanos("99999999999999999999999", MAX)).as("beyond a long").isEqualTo(MAX.toNanos());
	}

	@Test
	void zeroOrLessHasAlreadyPassed() {
		assertThat(Deadline.remainingNanos("0", MAX)).isEqualTo(Deadline.PASSED);
		assertThat(Deadline.remainingNanos("-5", MAX)).isEqualTo(Deadline.PASSED);
		assertThat(Deadline.remaining("-5", MAX)).isEqualTo(Duration.ZERO);
	}

	@Test
	void anAbsentOrUnreadableHeaderIsNoDeadline() {
		assertThat(Deadline.remainingNanos(null, MAX)).isEqualTo(Deadline.NONE);
		assertThat(Deadline.remainingNanos("", MAX)).isEqualTo(Deadline.NONE);
		assertThat(Deadline.remainingNanos("  ", MAX)).isEqualTo(Deadline.NONE);
		assertThat(Deadline.remainingNanos("soon", MAX)).isEqualTo(Deadline.NONE);
		assertThat(Deadline.remainingNanos("1.5", MAX)).isEqualTo(Deadline.NONE);
		assertThat(Deadline.remaining("soon", MAX)).isNull();
	}

}
