package dev.degradation.web;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which refusals take their turn: by default only those to a caller that came back before the
 * {@code Retry-After} it was given, by its address, with a bounded memory of addresses.
 */
class RefusedCallersTests {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	@Test
	void aCallerThatComesBackBeforeItsRetryAfterWaitsItsTurnAndOneThatWaitedDoesNot() {
		RefusedCallers callers = new RefusedCallers(RefusedCallers.Mode.RETRYING);
		assertThat(callers.inTurn("10.0.0.1", 2, 0)).as("first refusal").isFalse();
		assertThat(callers.inTurn("10.0.0.1", 2, SECOND)).as("back after 1 s of 2").isTrue();
		assertThat(callers.inTurn("10.0.0.2", 2, SECOND)).as("another caller").isFalse();
		assertThat(callers.inTurn("10.0.0.1", 2, 4 * SECOND)).as("back after its Retry-After").isFalse();
		assertThat(callers.inTurn(null, 2, 4 * SECOND)).as("no address known").isFalse();
		assertThat(callers.inTurn(null, 2, 4 * SECOND)).isFalse();
	}

	@Test
	void alwaysAndNeverDoNotLookAtTheCaller() {
		RefusedCallers always = new RefusedCallers(RefusedCallers.Mode.of("always"));
		RefusedCallers never = new RefusedCallers(RefusedCallers.Mode.of(" NEVER "));
		assertThat(always.inTurn("10.0.0.1", 1, 0)).isTrue();
		assertThat(never.inTurn("10.0.0.1", 1, 0)).isFalse();
		assertThat(never.inTurn("10.0.0.1", 1, 1)).isFalse();
		assertThat(always.remembered() + never.remembered()).isZero();
	}

	@Test
	void aFloodOfAddressesIsForgottenRatherThanKept() {
		RefusedCallers callers = new RefusedCallers(RefusedCallers.Mode.RETRYING);
		for (int i = 0; i < 3 * RefusedCallers.MAX_CALLERS; i++) {
			callers.inTurn("forged-" + i, 1, i);
			assertThat(callers.remembered()).isLessThanOrEqualTo(RefusedCallers.MAX_CALLERS + 1);
		}
		// Refused more than a Retry-After ago: forgotten as new ones come.
		callers.inTurn("early", 1, 0);
		for (int i = 0; i <= RefusedCallers.MAX_CALLERS; i++) {
			callers.inTurn("late-" + i, 1, 2 * SECOND);
		}
		assertThat(callers.inTurn("early", 1, 2 * SECOND)).isFalse();
	}

}
