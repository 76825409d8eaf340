package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RetryAfter} reads what a server asks for and nothing it should not: seconds and HTTP
 * dates, never a negative, unreadable or past wait. Capping is the guard's, and a value beyond
 * any cap stays beyond it.
 */
class RetryAfterTests {

	private final Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);

	@Test
	void secondsAreAWait() {
		assertThat(RetryAfter.parse("3600", this.clock)).isEqualTo(Duration.ofHours(1));
		assertThat(RetryAfter.parse(" 0 ", this.clock)).isEqualTo(Duration.ZERO);
	}

	@Test
	void anHttpDateIsTheWaitUntilThen() {
		assertThat(RetryAfter.parse("Tue, 01 Dec 2026 10:00:30 GMT", this.clock)).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void anHttpDateInThePastIsNoWait() {
		assertThat(RetryAfter.parse("Tue, 01 Dec 2026 09:00:00 GMT", this.clock)).isEqualTo(Duration.ZERO);
	}

	@Test
	void negativeGarbageAndAbsentValuesAreIgnored() {
		assertThat(RetryAfter.parse("-5", this.clock)).isNull();
		assertThat(RetryAfter.parse("soon", this.clock)).isNull();
		assertThat(RetryAfter.parse("1.5", this.clock)).isNull();
		assertThat(RetryAfter.parse("Wed, 99 Foo 2026 00:00:00 GMT", this.clock)).isNull();
		assertThat(RetryAfter.parse("", this.clock)).isNull();
		assertThat(RetryAfter.parse(null, this.clock)).isNull();
	}

	@Test
	void moreDigitsThanALongIsBeyondAnyCap() {
		assertThat(RetryAfter.parse("99999999999999999999999", this.clock)).isEqualTo(Duration.ofSeconds(Long.MAX_VALUE));
	}

}
