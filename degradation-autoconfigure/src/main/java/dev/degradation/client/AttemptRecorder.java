package dev.degradation.client;

import java.time.Duration;
import java.util.concurrent.CancellationException;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.timelimiter.TimeLimiter;
import org.jspecify.annotations.Nullable;

import dev.degradation.client.DependencyUnavailableException.Reason;

/**
 * Tells a dependency's circuit breaker and time limiter how each guarded attempt ended, as
 * Resilience4j's own operators do: one judged outcome per attempt, and none for what was not the
 * dependency's doing (the caller gave up, its deadline cut the attempt short, no thread was free).
 * Apart from the guard's loop so that what counts as evidence reads in one place.
 */
final class AttemptRecorder {

	private final String dependency;

	private final CircuitBreaker breaker;

	private final TimeLimiter timeLimiter;

	AttemptRecorder(String dependency, CircuitBreaker breaker, TimeLimiter timeLimiter) {
		this.dependency = dependency;
		this.breaker = breaker;
		this.timeLimiter = timeLimiter;
	}

	/**
	 * Tell the breaker of an answer as Resilience4j's operators do, by
	 * {@link CircuitBreaker#onResult}: its {@code recordResult} predicate counts a judged failure
	 * (a 5xx) as an error, any other answer as a success. The time limiter hears of an attempt
	 * that ended in time.
	 * @param started when the attempt began, by the breaker's monotonic timestamp (as its operators measure)
	 */
	void answer(long started, JudgedAnswer<?> judged) {
		this.breaker.onResult(this.breaker.getCurrentTimestamp() - started, this.breaker.getTimestampUnit(), judged);
		time(null);
	}

	/**
	 * Tell the breaker and the time limiter of an attempt that got no answer. The breaker
	 * ignores a {@link CallerDeadlineExceededException} (and releases the permission).
	 * @param started when the attempt began, by the breaker's monotonic timestamp (as its operators measure)
	 */
	void failure(long started, Throwable failure) {
		this.breaker.onError(this.breaker.getCurrentTimestamp() - started, this.breaker.getTimestampUnit(), failure);
		time(failure);
	}

	/**
	 * Tell the time limiter how an attempt ended.
	 * @param failure what ended the attempt (a time-out is counted as one), or {@code null} for
	 * an answer in time
	 */
	void time(@Nullable Throwable failure) {
		if (failure == null) {
			this.timeLimiter.onSuccess();
		}
		else {
			this.timeLimiter.onError(failure);
		}
	}

	/**
	 * Record an attempt that timed out, as the dependency's failure or, when the caller's
	 * deadline cut it short, as the caller's (which the breaker ignores).
	 * @return the exception for the caller
	 */
	DependencyUnavailableException timedOut(long started, Duration limit, Throwable timeout, boolean byCaller) {
		Throwable failure = byCaller ? new CallerDeadlineExceededException(limit.toMillis(), timeout) : timeout;
		failure(started, failure);
		return new DependencyUnavailableException(this.dependency, Reason.TIMEOUT,
				byCaller ? failure.getMessage() : "no answer within " + limit.toMillis() + " ms", failure);
	}

	/**
	 * Record nothing of an attempt whose caller gave up, and keep the caller's interrupt.
	 * @return the exception for the caller
	 */
	CancellationException cancelled() {
		// The caller gave up: no evidence about the dependency.
		this.breaker.releasePermission();
		Thread.currentThread().interrupt();
		return new CancellationException("Call to '" + this.dependency + "' cancelled by its caller");
	}

	/**
	 * Give back a permission the breaker granted for an attempt that never reached the
	 * dependency (no thread free): no evidence for it.
	 */
	void notAttempted() {
		this.breaker.releasePermission();
	}

}
