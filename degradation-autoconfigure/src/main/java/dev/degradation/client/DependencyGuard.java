package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import org.jspecify.annotations.Nullable;

import dev.degradation.client.CallTime.CallEnd;
import dev.degradation.client.DependencyUnavailableException.Reason;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.manifest.Dependency;

/**
 * Guards the application's calls to one dependency with its Resilience4j circuit breaker, its
 * time limit and its retry policy from the manifest.
 *
 * <p>Every call gets the smaller of its time limit and the time left of the request's
 * {@link CallDeadline}, less a reserve for the caller's own answer (2 %, at most 20 ms), so that
 * the answer, not only the call, fits in the declared time.
 *
 * <p>A call costs no thread of its own where it can: an HTTP call whose client enforces the
 * attempt's {@link AttemptLimit} as its own per-request timeout runs on the caller's thread, and
 * its client gives up in time. Any other call (a client without such a timeout, code guarded
 * through the API) runs on the bounded {@link GuardExecutor}, which refuses a call when full.
 *
 * <p>Retries go through the dependency's Resilience4j {@link Retry} (only for the policy's
 * methods, only for answers the classifier calls retryable or for connection errors): it counts
 * the attempts and says how long to wait, the server's {@code Retry-After} capped at
 * {@code max_retry_after_ms}, else a jittered exponential backoff. The guard waits, and never
 * starts a wait that would end past the budget: all attempts and waits together stay within
 * {@code budget_ms}, which Resilience4j's {@code Retry} has no notion of. The caller's own
 * interruption is never counted as a failure, and neither is a time-out that the caller's own
 * deadline set (an attempt left less than the dependency's time limit by the request's deadline):
 * the dependency was not given its time.
 *
 * <p>The guard holds the loop of a call's attempts; each job it asks of others is in one place:
 * the deadline arithmetic in {@link CallTime}, the retry's settings and waits in
 * {@link GuardRetries}, where an attempt runs in {@link AttemptPlacement}, what the breaker and the
 * time limiter are told in {@link AttemptRecorder}, and which failure is a time-out in
 * {@link CallFailures}.
 */
public final class DependencyGuard {

	private final Dependency dependency;

	private final CircuitBreaker breaker;

	private final TimeLimiter timeLimiter;

	private final Retry retry;

	private final GuardExecutor executor;

	private final Clock clock;

	private final Sleeper sleeper;

	private final CallTime time;

	private final GuardRetries retries;

	private final AttemptRecorder records;

	DependencyGuard(Dependency dependency, CircuitBreaker breaker, TimeLimiter timeLimiter, Retry retry,
			GuardExecutor executor, Clock clock, Sleeper sleeper) {
		this.dependency = dependency;
		this.breaker = breaker;
		this.timeLimiter = timeLimiter;
		this.retry = retry;
		this.executor = executor;
		this.clock = clock;
		this.sleeper = sleeper;
		this.time = new CallTime(dependency.calls(), clock);
		this.retries = new GuardRetries(this.time, sleeper);
		this.records = new AttemptRecorder(dependency.name(), breaker, timeLimiter);
	}

	/**
	 * Return this guard for the same dependency as a reloaded manifest declares it, with the same
	 * breaker, time limiter and retry (its call budget is unchanged).
	 */
	DependencyGuard of(Dependency dependency) {
		return (dependency.equals(this.dependency)) ? this
				: new DependencyGuard(dependency, this.breaker, this.timeLimiter, this.retry, this.executor,
						this.clock, this.sleeper);
	}

	/**
	 * Return the dependency this guard protects.
	 * @return the dependency
	 */
	public Dependency dependency() {
		return this.dependency;
	}

	/**
	 * Return the dependency's circuit breaker.
	 * @return the breaker, as registered in the {@code CircuitBreakerRegistry}
	 */
	public CircuitBreaker circuitBreaker() {
		return this.breaker;
	}

	/**
	 * Return the dependency's time limiter; the guards bound each attempt themselves (by the
	 * smaller of its limit and the time left, which its fixed duration cannot express) and report
	 * every attempt to it, from a {@code RestClient}, a {@code WebClient} or a gateway alike, so
	 * its events and metrics count every guarded call's successes and time-outs.
	 * @return the time limiter, as registered in the {@code TimeLimiterRegistry}
	 */
	public TimeLimiter timeLimiter() {
		return this.timeLimiter;
	}

	/**
	 * Return the dependency's retry, with the manifest's settings; it decides the retries of
	 * the guarded calls and counts them.
	 * @return the retry, as registered in the {@code RetryRegistry}
	 */
	public Retry retry() {
		return this.retry;
	}

	/**
	 * Call the dependency once, without retries: for code that is not an HTTP call (a JDBC
	 * query, an SDK). The call runs on a thread of the guards' bounded executor, so that its
	 * caller gets an answer at the time limit whatever the call does. Any exception is a failure.
	 * @param <T> the type of the answer
	 * @param call the call
	 * @return its answer
	 * @throws DependencyUnavailableException if the breaker is open, the call times out or
	 * fails, or the executor is full
	 */
	public <T> T call(Callable<T> call) {
		return call(null, call, (answer) -> CallOutcome.SUCCESS);
	}

	/**
	 * Call the dependency, with retries where the method and the answer allow them, each
	 * attempt on a thread of the guards' bounded executor.
	 * @param <T> the type of the answer
	 * @param method the HTTP method of the call, or {@code null} when it is not an HTTP call
	 * (never retried)
	 * @param call one attempt, given the time it may take
	 * @param classifier how an answer is judged
	 * @return the answer of the last attempt: a good one, or the last retryable one when the
	 * attempts or the budget ran out
	 * @throws DependencyUnavailableException if the breaker is open, an attempt times out, the
	 * last attempt throws, the executor is full, or the request the call is made for simulates the
	 * dependency as failed ({@link RequestSimulation})
	 */
	public <T> T call(@Nullable String method, Callable<T> call, Function<T, CallOutcome> classifier) {
		DependencyUnavailableException simulated = SimulatedCalls.refused(RequestSimulation.current(),
				this.dependency.name());
		if (simulated != null) {
			throw simulated;
		}
		return attempt(method, (limit) -> call.call(), classifier, (answer) -> {
		}, AttemptPlacement.THREAD);
	}

	/**
	 * Call the dependency, each attempt told the time it may take (to pass on as a deadline).
	 * @param <T> the type of the answer
	 * @param method the HTTP method, or {@code null}
	 * @param call one attempt
	 * @param classifier how an answer is judged
	 * @param discard what to do with an answer that is not returned (close it)
	 * @param placement where the attempts run: on the caller's thread once the client is known
	 * to enforce their limit, else on the executor
	 * @return the answer of the last attempt
	 */
	<T> T attempt(@Nullable String method, Attempt<T> call, Function<T, CallOutcome> classifier,
			Consumer<T> discard, AttemptPlacement placement) {
		CallEnd callEnd = end(method, CallDeadline.current());
		Instant end = callEnd.at();
		Retry.AsyncContext<CallOutcome> retrying = retries(method) ? this.retry.asyncContext() : null;
		for (;;) {
			Duration left = this.time.timeLeft(end);
			if (left.isNegative() || left.isZero()) {
				throw new DependencyUnavailableException(name(), Reason.TIMEOUT,
						"no time left of its budget or deadline", null);
			}
			Duration limit = this.time.attemptLimit(left);
			if (!this.breaker.tryAcquirePermission()) {
				throw new DependencyUnavailableException(name(), Reason.BREAKER_OPEN,
						"circuit breaker " + this.breaker.getState(), null);
			}
			long started = this.breaker.getCurrentTimestamp();
			T answer;
			try {
				answer = placement.run(call, limit, this.executor, name());
			}
			catch (TimeoutException ex) {
				throw this.records.timedOut(started, limit, ex, this.time.cutShortByCaller(callEnd, limit));
			}
			catch (RejectedExecutionException ex) {
				// Not the dependency's doing: no evidence for its breaker.
				this.records.notAttempted();
				throw new DependencyUnavailableException(name(), Reason.EXECUTOR_FULL,
						"no thread free for the call (" + this.executor.maxCalls() + " guarded calls running)", ex);
			}
			catch (InterruptedException ex) {
				throw this.records.cancelled();
			}
			catch (ExecutionException ex) {
				Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
				if (isTimeout(cause)) {
					throw this.records.timedOut(started, limit, cause, this.time.cutShortByCaller(callEnd, limit));
				}
				this.records.failure(started, cause);
				if (retrying != null && this.retries.waitBeforeRetry(retrying.onError(cause), end, name())) {
					continue;
				}
				throw new DependencyUnavailableException(name(), Reason.FAILED, String.valueOf(cause.getMessage()),
						cause);
			}
			CallOutcome outcome = classifier.apply(answer);
			this.records.answer(started, new JudgedAnswer<>(answer, outcome));
			if (retrying != null) {
				if (this.retries.waitBeforeRetry(retrying.onResult(outcome), end, name())) {
					discard.accept(answer);
					continue;
				}
				retrying.onComplete();
			}
			return answer;
		}
	}

	/**
	 * Tell the dependency's time limiter how an attempt that its breaker's operator recorded
	 * ended, for a client whose attempts are bounded by their own time-out (the smaller of the
	 * dependency's limit and the caller's time left, which a {@code TimeLimiter}'s fixed
	 * duration cannot express): its events and metrics then count every guarded attempt.
	 * @param failure what ended the attempt (a time-out is counted as one), or {@code null} for
	 * an answer in time
	 */
	public void recordTime(@Nullable Throwable failure) {
		this.records.time(failure);
	}

	/**
	 * Return whether calls with a method are retried: only HTTP calls, only the policy's methods.
	 */
	boolean retries(@Nullable String method) {
		return method != null && this.dependency.calls().retry().retries(method);
	}

	/**
	 * Return when a call beginning now must have its answer: after its time limit, or its retry
	 * budget when its method is retried, at the latest at the request's deadline, less the
	 * reserve for the caller's own answer. The same for every client the guard serves.
	 * @param method the HTTP method, or {@code null}
	 * @param deadline the request's deadline, or {@code null}
	 */
	CallEnd end(@Nullable String method, @Nullable Instant deadline) {
		return this.time.end(retries(method), deadline);
	}

	/**
	 * Return the deadline arithmetic of this guard's calls, for a client that runs its attempts
	 * itself (the {@code WebClient} filter).
	 */
	CallTime time() {
		return this.time;
	}

	/**
	 * Return whether a failure, or one of its causes, is a time-out: the guard's or Reactor's
	 * {@code TimeoutException} (a {@link CallerDeadlineExceededException} too), the JDK
	 * client's {@code HttpTimeoutException}, or an interrupted I/O that no interrupt caused
	 * (Apache HttpClient's response, connect and connection-request time-outs). The one test
	 * of every guarded client, the gateway's included.
	 * @param failure the failure
	 * @return whether it is a time-out
	 */
	public static boolean isTimeout(Throwable failure) {
		return CallFailures.isTimeout(failure);
	}

	private String name() {
		return this.dependency.name();
	}

	/**
	 * One attempt of a call, told the time it may take.
	 *
	 * @param <T> the type of the answer
	 */
	@FunctionalInterface
	interface Attempt<T> {

		T call(Duration limit) throws Exception;

	}

	/**
	 * How the guard waits before a retry: {@code Thread.sleep} (a virtual thread unmounts), a
	 * clock that a test moves in tests.
	 */
	@FunctionalInterface
	interface Sleeper {

		Sleeper THREAD = (wait) -> Thread.sleep(wait.toMillis());

		void sleep(Duration wait) throws InterruptedException;

	}

}
