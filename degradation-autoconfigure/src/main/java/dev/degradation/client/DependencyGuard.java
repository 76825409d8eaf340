package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import org.jspecify.annotations.Nullable;

import dev.degradation.client.DependencyUnavailableException.Reason;
import dev.degradation.manifest.CallBudget;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.RetryPolicy;

/**
 * Guards the application's calls to one dependency with its Resilience4j circuit breaker, its
 * time limit and its retry policy from the manifest.
 *
 * <p>Every call gets the smaller of its time limit and the time left of the request's
 * {@link CallDeadline}, less a reserve for the caller's own answer (2 %, at most 20 ms), so that
 * the answer, not only the call, fits in the declared time. Retries (only for the policy's methods, only for answers the
 * classifier calls retryable or for connection errors) wait the server's {@code Retry-After}
 * capped at {@code max_retry_after_ms}, else a jittered exponential backoff, and never start a
 * wait that would end past the budget: all attempts and waits together stay within
 * {@code budget_ms}. Resilience4j's {@code Retry} has no total budget and cannot take its wait
 * from an answer, so the attempts are run here; the {@code Retry} is registered with the same
 * settings so that Resilience4j's endpoints show them. The caller's own interruption is never
 * counted as a failure.
 */
public final class DependencyGuard {

	private static final Duration MAX_ANSWER_RESERVE = Duration.ofMillis(20);

	private final Dependency dependency;

	private final CircuitBreaker breaker;

	private final TimeLimiter timeLimiter;

	private final Retry retry;

	private final ExecutorService executor;

	private final Clock clock;

	DependencyGuard(Dependency dependency, CircuitBreaker breaker, TimeLimiter timeLimiter, Retry retry,
			ExecutorService executor, Clock clock) {
		this.dependency = dependency;
		this.breaker = breaker;
		this.timeLimiter = timeLimiter;
		this.retry = retry;
		this.executor = executor;
		this.clock = clock;
	}

	/**
	 * Return this guard for the same dependency as a reloaded manifest declares it, with the same
	 * breaker, time limiter and retry (its call budget is unchanged).
	 */
	DependencyGuard of(Dependency dependency) {
		return (dependency.equals(this.dependency)) ? this
				: new DependencyGuard(dependency, this.breaker, this.timeLimiter, this.retry, this.executor, this.clock);
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
	 * Return the dependency's retry, with the manifest's settings.
	 * @return the retry, as registered in the {@code RetryRegistry}
	 */
	public Retry retry() {
		return this.retry;
	}

	/**
	 * Call the dependency once, without retries: for code that is not an HTTP call (a JDBC
	 * query, an SDK). Any exception is a failure.
	 * @param <T> the type of the answer
	 * @param call the call
	 * @return its answer
	 * @throws DependencyUnavailableException if the breaker is open, the call times out or fails
	 */
	public <T> T call(Callable<T> call) {
		return call(null, call, (answer) -> CallOutcome.SUCCESS);
	}

	/**
	 * Call the dependency, with retries where the method and the answer allow them.
	 * @param <T> the type of the answer
	 * @param method the HTTP method of the call, or {@code null} when it is not an HTTP call
	 * (never retried)
	 * @param call one attempt, given the time it may take
	 * @param classifier how an answer is judged
	 * @return the answer of the last attempt: a good one, or the last retryable one when the
	 * attempts or the budget ran out
	 * @throws DependencyUnavailableException if the breaker is open, an attempt times out, or the
	 * last attempt throws
	 */
	public <T> T call(@Nullable String method, Callable<T> call, Function<T, CallOutcome> classifier) {
		return attempt(method, (limit) -> call.call(), classifier, (answer) -> {
		});
	}

	/**
	 * Call the dependency, each attempt told the time it may take (to pass on as a deadline).
	 * @param <T> the type of the answer
	 * @param method the HTTP method, or {@code null}
	 * @param call one attempt
	 * @param classifier how an answer is judged
	 * @param discard what to do with an answer that is not returned (close it)
	 * @return the answer of the last attempt
	 */
	<T> T attempt(@Nullable String method, Attempt<T> call, Function<T, CallOutcome> classifier,
			java.util.function.Consumer<T> discard) {
		CallBudget budget = this.dependency.calls();
		RetryPolicy policy = budget.retry();
		boolean retries = method != null && policy.retries(method);
		Instant start = this.clock.instant();
		Instant end = start.plus(retries ? policy.budget() : budget.timeout());
		Instant deadline = CallDeadline.current();
		if (deadline != null && deadline.isBefore(end)) {
			end = deadline;
		}
		if (end.isAfter(start)) {
			end = end.minus(answerReserve(Duration.between(start, end)));
		}
		int maxAttempts = retries ? policy.maxAttempts() : 1;
		for (int attempt = 1;; attempt++) {
			Duration left = Duration.between(this.clock.instant(), end);
			if (left.isNegative() || left.isZero()) {
				throw new DependencyUnavailableException(name(), Reason.TIMEOUT,
						"no time left of its budget or deadline", null);
			}
			Duration limit = min(budget.timeout(), left);
			if (!this.breaker.tryAcquirePermission()) {
				throw new DependencyUnavailableException(name(), Reason.BREAKER_OPEN,
						"circuit breaker " + this.breaker.getState(), null);
			}
			long started = System.nanoTime();
			T answer;
			try {
				answer = run(call, limit);
			}
			catch (TimeoutException ex) {
				this.breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, ex);
				this.timeLimiter.onError(ex);
				throw new DependencyUnavailableException(name(), Reason.TIMEOUT,
						"no answer within " + limit.toMillis() + " ms", ex);
			}
			catch (InterruptedException ex) {
				// The caller gave up: no evidence about the dependency.
				this.breaker.releasePermission();
				Thread.currentThread().interrupt();
				throw new CancellationException("Call to '" + name() + "' cancelled by its caller");
			}
			catch (ExecutionException ex) {
				Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
				this.breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, cause);
				this.timeLimiter.onError(cause);
				if (attempt < maxAttempts && isConnectionError(cause)
						&& waitBeforeRetry(attempt, null, end, policy)) {
					continue;
				}
				throw new DependencyUnavailableException(name(), Reason.FAILED, String.valueOf(cause.getMessage()),
						cause);
			}
			long took = System.nanoTime() - started;
			this.timeLimiter.onSuccess();
			CallOutcome outcome = classifier.apply(answer);
			if (outcome.failure()) {
				this.breaker.onError(took, TimeUnit.NANOSECONDS,
						new IllegalStateException("failed answer from '" + name() + "'"));
			}
			else {
				this.breaker.onSuccess(took, TimeUnit.NANOSECONDS);
			}
			if (outcome.retryable() && attempt < maxAttempts
					&& waitBeforeRetry(attempt, outcome.retryAfter(), end, policy)) {
				discard.accept(answer);
				continue;
			}
			return answer;
		}
	}

	private <T> T run(Attempt<T> call, Duration limit)
			throws TimeoutException, InterruptedException, ExecutionException {
		Future<T> future = this.executor.submit(() -> call.call(limit));
		try {
			return future.get(limit.toNanos(), TimeUnit.NANOSECONDS);
		}
		finally {
			// A call that overran, or whose caller gave up, must not hold its thread.
			future.cancel(true);
		}
	}

	/**
	 * Wait before the next attempt, unless the wait would end past the budget (then the caller
	 * gets the answer it has).
	 * @return whether to try again
	 */
	private boolean waitBeforeRetry(int attempt, @Nullable Duration retryAfter, Instant end, RetryPolicy policy) {
		Duration wait = (retryAfter != null) ? min(retryAfter, policy.maxRetryAfter()) : backoff(attempt, policy);
		if (!this.clock.instant().plus(wait).isBefore(end)) {
			return false;
		}
		try {
			Thread.sleep(Math.max(0, wait.toMillis()));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("Call to '" + name() + "' cancelled by its caller");
		}
	}

	/**
	 * Exponential from {@code backoff_ms}, with full jitter between half and all of it, so that
	 * callers that failed together do not retry together.
	 */
	private static Duration backoff(int attempt, RetryPolicy policy) {
		long base = policy.backoff().toMillis() << Math.min(attempt - 1, 20);
		long jittered = base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1);
		return Duration.ofMillis(jittered);
	}

	private static boolean isConnectionError(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof java.net.ConnectException || cause instanceof java.net.NoRouteToHostException
					|| cause instanceof java.net.UnknownHostException) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	/**
	 * The part of a call's time kept for the answer the caller still has to give once the call
	 * gave up (its fallback, its error): 2 % of it, at most 20 ms. Without it a call that times
	 * out made its caller's answer overrun the declared timeout by that much.
	 */
	static Duration answerReserve(Duration total) {
		Duration share = total.dividedBy(50);
		return (share.compareTo(MAX_ANSWER_RESERVE) <= 0) ? share : MAX_ANSWER_RESERVE;
	}

	private String name() {
		return this.dependency.name();
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
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

}
