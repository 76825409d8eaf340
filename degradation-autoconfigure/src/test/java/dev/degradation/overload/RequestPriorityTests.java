package dev.degradation.overload;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * The priority held for the request a thread serves: set for the work, restored after it, even
 * when the work fails, and never seen by another thread.
 */
class RequestPriorityTests {

	@Test
	void aThreadThatServesNoRequestHoldsNoPriority() {
		assertThat(RequestPriority.current()).isNull();
	}

	@Test
	void workRunsAtItsPriorityAndThePreviousOneComesBackAfter() throws Exception {
		Integer[] seen = new Integer[3];
		RequestPriority.runWithin(PassedPriority.CORE, () -> {
			seen[0] = RequestPriority.current();
			RequestPriority.runWithin(1, () -> seen[1] = RequestPriority.current());
			seen[2] = RequestPriority.current();
		});
		assertThat(seen).containsExactly(PassedPriority.CORE, 1, PassedPriority.CORE);
		assertThat(RequestPriority.current()).isNull();
	}

	@Test
	void workThatFailsLeavesNoPriorityBehind() {
		assertThatIOException().isThrownBy(() -> RequestPriority.runWithin(1, () -> {
			throw new IOException("failed");
		}));
		assertThat(RequestPriority.current()).isNull();
	}

	@Test
	void aHeldPriorityIsReleasedWhenClosed() {
		RequestPriority.Held held = RequestPriority.hold(3);
		assertThat(RequestPriority.current()).isEqualTo(3);
		held.close();
		assertThat(RequestPriority.current()).isNull();
	}

	@Test
	void anotherThreadDoesNotSeeTheHeldPriority() throws Exception {
		RequestPriority.Held held = RequestPriority.hold(1);
		try {
			assertThat(CompletableFuture.supplyAsync(RequestPriority::current).get()).isNull();
		}
		finally {
			held.close();
		}
	}

}
