package dev.degradation.client;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;

import io.github.resilience4j.retry.RetryConfig;

import dev.degradation.manifest.RetryPolicy;

/**
 * How a guard retries: the Resilience4j settings of a policy (which answers and failures are
 * retried, the wait before each retry), and the wait itself, which never begins when it would end
 * past the call's budget or deadline ({@link CallTime}), since Resilience4j's {@code Retry} has no
 * notion of either.
 */
final class GuardRetries {

	private final CallTime time;

	private final DependencyGuard.Sleeper sleeper;

	GuardRetries(CallTime time, DependencyGuard.Sleeper sleeper) {
		this.time = time;
		this.sleeper = sleeper;
	}

	/**
	 * Wait what the retry asked for before the next attempt, unless it asked for none or the
	 * wait would end past the budget (then the caller gets the answer it has).
	 * @param wait the wait in milliseconds, negative for no further attempt
	 * @param end the call's end
	 * @param dependency the dependency called, for the message when the caller gives up
	 * @return whether to try again
	 */
	boolean waitBeforeRetry(long wait, Instant end, String dependency) {
		if (!this.time.mayWait(wait, end)) {
			return false;
		}
		try {
			this.sleeper.sleep(Duration.ofMillis(wait));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("Call to '" + dependency + "' cancelled by its caller");
		}
	}

	/**
	 * The Resilience4j retry settings of a policy: its attempts, which answers and failures are
	 * retried, and the wait before each retry (the server's {@code Retry-After} capped, else the
	 * backoff). The budget is the guard's.
	 */
	static RetryConfig config(RetryPolicy policy) {
		return RetryConfig.<CallOutcome>custom()
			.maxAttempts(policy.maxAttempts())
			.retryOnResult(CallOutcome::retryable)
			.retryOnException(CallFailures::isConnectionError)
			.intervalBiFunction((attempt, answer) -> {
				Duration retryAfter = answer.isRight() ? answer.get().retryAfter() : null;
				Duration wait = (retryAfter == null) ? backoff(attempt, policy)
						: (retryAfter.compareTo(policy.maxRetryAfter()) <= 0) ? retryAfter : policy.maxRetryAfter();
				return wait.toMillis();
			})
			.build();
	}

	/**
	 * Exponential from {@code backoff_ms}, with full jitter between half and all of it, so that
	 * callers that failed together do not retry together.
	 */
	private static Duration backoff(int attempt, RetryPolicy policy) {
		long base = policy.backoff().toMillis() << Math.min(Math.max(attempt, 1) - 1, 20);
		long jittered = base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1);
		return Duration.ofMillis(jittered);
	}

}
