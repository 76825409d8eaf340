package dev.degradation.client;

import java.io.IOException;
import java.net.ConnectException;

import org.junit.jupiter.api.Test;

import dev.degradation.client.DependencyUnavailableException.Reason;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the request decision reads a guarded call that got no answer from a handler's failure: in
 * the cause chain, or attached as a suppressed exception where a gateway's guard keeps the I/O
 * error as the direct cause for the gateway's {@code Retry} filter.
 */
class DependencyUnavailableExceptionTests {

	@Test
	void aRefusedCallInTheCauseChainIsFound() {
		DependencyUnavailableException refused = new DependencyUnavailableException("catalog", Reason.BREAKER_OPEN,
				"circuit breaker OPEN", null);
		assertThat(DependencyUnavailableException.withoutAnswer(new IllegalStateException("503", refused)))
			.isSameAs(refused);
	}

	@Test
	void aFailedCallAttachedAsSuppressedBesideItsIoErrorIsFound() {
		IOException refusedConnection = new ConnectException("Connection refused");
		DependencyUnavailableException failed = new DependencyUnavailableException("catalog", Reason.FAILED,
				"Connection refused", refusedConnection);
		IllegalStateException answer = new IllegalStateException("502", refusedConnection);
		answer.addSuppressed(failed);
		assertThat(DependencyUnavailableException.withoutAnswer(answer)).isSameAs(failed);
		assertThat(DependencyUnavailableException.dependencyWithoutAnswer(new RuntimeException(answer)))
			.isEqualTo("catalog");
	}

	@Test
	void aFailedCallWithoutAnIoErrorIsTheApplicationsErrorWhereverItIs() {
		IllegalArgumentException bug = new IllegalArgumentException("bad URI");
		DependencyUnavailableException failed = new DependencyUnavailableException("catalog", Reason.FAILED,
				"bad URI", bug);
		IllegalStateException answer = new IllegalStateException("502", bug);
		answer.addSuppressed(failed);
		assertThat(DependencyUnavailableException.withoutAnswer(answer)).isNull();
		assertThat(DependencyUnavailableException.withoutAnswer(new IllegalStateException("500", failed))).isNull();
	}

	@Test
	void aFailureWithNoGuardedCallIsNone() {
		IllegalStateException failure = new IllegalStateException("500", new ConnectException("refused"));
		failure.addSuppressed(new IllegalArgumentException("closing"));
		assertThat(DependencyUnavailableException.withoutAnswer(failure)).isNull();
	}

}
