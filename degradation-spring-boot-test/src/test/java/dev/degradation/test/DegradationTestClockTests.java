package dev.degradation.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * The clock that tests move.
 */
class DegradationTestClockTests {

	private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

	private final DegradationTestClock clock = new DegradationTestClock(Clock.fixed(NOW, ZoneOffset.UTC));

	@Test
	void runsWithTheClockItIsGivenUntilMoved() {
		assertThat(this.clock.instant()).isEqualTo(NOW);
		assertThat(this.clock.offset()).isZero();
		assertThat(new DegradationTestClock().instant()).isCloseTo(Instant.now(), within(Duration.ofSeconds(5)));
	}

	@Test
	void everyAdvanceAddsUp() {
		this.clock.advance(Duration.ofSeconds(90));
		this.clock.advance(Duration.ofMillis(500));
		assertThat(this.clock.instant()).isEqualTo(NOW.plusSeconds(90).plusMillis(500));
		assertThat(this.clock.offset()).isEqualTo(Duration.ofMillis(90_500));
	}

	@Test
	void neverGoesBack() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.clock.advance(Duration.ofSeconds(-1)))
			.withMessage("'duration' must not be negative, but was PT-1S");
		assertThat(this.clock.instant()).isEqualTo(NOW);
	}

	@Test
	void runsItsActionsAfterEachAdvanceWithTheTimeAlreadyMoved() {
		AtomicInteger runs = new AtomicInteger();
		this.clock.onAdvance(() -> {
			assertThat(this.clock.instant()).isEqualTo(NOW.plusSeconds(runs.incrementAndGet()));
		});
		this.clock.advance(Duration.ofSeconds(1));
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(runs).hasValue(2);
	}

	@Test
	void aViewInAnotherZoneMovesWithIt() {
		Clock paris = this.clock.withZone(ZoneId.of("Europe/Paris"));
		this.clock.advance(Duration.ofMinutes(1));
		assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
		assertThat(paris.instant()).isEqualTo(NOW.plusSeconds(60));
		assertThat(this.clock.withZone(ZoneOffset.UTC)).isSameAs(this.clock);
	}

}
