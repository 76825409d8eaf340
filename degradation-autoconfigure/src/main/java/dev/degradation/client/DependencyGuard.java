package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.timelimiter.TimeLimiter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.engine.RequestSimulation;
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
 */
public final class DependencyGuard {

	private static final Log logger = LogFactory.getLog(DependencyGuard.class);

	private static final Duration MAX_ANSWER_RESERVE = Duration.ofMillis(20);

	private final Dependency dependency;

	private final CircuitBreaker breaker;

	private final TimeLimiter timeLimiter;

	private final Retry retry;

	private final GuardExecutor executor;

	private final Clock clock;

	private final Sleeper sleeper;

	DependencyGuard(Dependency dependency, CircuitBreaker breaker, TimeLimiter timeLimiter, Retry retry,
			GuardExecutor executor, Clock clock, Sleeper sleeper) {
		this.dependency = dependency;
		this.breaker = breaker;
		this.timeLimiter = timeLimiter;
		this.retry = retry;
		this.executor = executor;
		this.clock = clock;
		this.sleeper = sleeper;
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
		CallBudget budget = this.dependency.calls();
		CallEnd callEnd = end(method, CallDeadline.current());
		Instant end = callEnd.at();
		Retry.AsyncContext<CallOutcome> retrying = retries(method) ? this.retry.asyncContext() : null;
		for (;;) {
			Duration left = timeLeft(end);
			if (left.isNegative() || left.isZero()) {
				throw new DependencyUnavailableException(name(), Reason.TIMEOUT,
						"no time left of its budget or deadline", null);
			}
			Duration limit = min(budget.timeout(), left);
			if (!this.breaker.tryAcquirePermission()) {
				throw new DependencyUnavailableException(name(), Reason.BREAKER_OPEN,
						"circuit breaker " + this.breaker.getState(), null);
			}
			long started = this.breaker.getCurrentTimestamp();
			T answer;
			try {
				answer = once(call, limit, placement);
			}
			catch (TimeoutException ex) {
				throw timedOut(started, limit, ex, cutShortByCaller(callEnd, limit));
			}
			catch (RejectedExecutionException ex) {
				// Not the dependency's doing: no evidence for its breaker.
				this.breaker.releasePermission();
				throw new DependencyUnavailableException(name(), Reason.EXECUTOR_FULL,
						"no thread free for the call (" + this.executor.maxCalls() + " guarded calls running)", ex);
			}
			catch (InterruptedException ex) {
				throw cancelled();
			}
			catch (ExecutionException ex) {
				Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
				if (isTimeout(cause)) {
					throw timedOut(started, limit, cause, cutShortByCaller(callEnd, limit));
				}
				recordFailure(started, cause);
				if (retrying != null && waitBeforeRetry(retrying.onError(cause), end)) {
					continue;
				}
				throw new DependencyUnavailableException(name(), Reason.FAILED, String.valueOf(cause.getMessage()),
						cause);
			}
			CallOutcome outcome = classifier.apply(answer);
			recordAnswer(started, new JudgedAnswer<>(answer, outcome));
			if (retrying != null) {
				if (waitBeforeRetry(retrying.onResult(outcome), end)) {
					discard.accept(answer);
					continue;
				}
				retrying.onComplete();
			}
			return answer;
		}
	}

	/**
	 * Tell the breaker of an answer as Resilience4j's operators do, by
	 * {@link CircuitBreaker#onResult}: its {@code recordResult} predicate counts a judged failure
	 * (a 5xx) as an error, any other answer as a success. The time limiter hears of an attempt
	 * that ended in time.
	 * @param started when the attempt began, by the breaker's monotonic timestamp (as its operators measure)
	 */
	private void recordAnswer(long started, JudgedAnswer<?> judged) {
		this.breaker.onResult(this.breaker.getCurrentTimestamp() - started, this.breaker.getTimestampUnit(), judged);
		recordTime(null);
	}

	/**
	 * Tell the breaker and the time limiter of an attempt that got no answer. The breaker
	 * ignores a {@link CallerDeadlineExceededException} (and releases the permission).
	 * @param started when the attempt began, by the breaker's monotonic timestamp (as its operators measure)
	 */
	private void recordFailure(long started, Throwable failure) {
		this.breaker.onError(this.breaker.getCurrentTimestamp() - started, this.breaker.getTimestampUnit(), failure);
		recordTime(failure);
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
		if (failure == null) {
			this.timeLimiter.onSuccess();
		}
		else {
			this.timeLimiter.onError(failure);
		}
	}

	/**
	 * Make one attempt: on the caller's thread when its client is known to enforce the limit,
	 * else on the executor.
	 */
	private <T> T once(Attempt<T> call, Duration limit, AttemptPlacement placement)
			throws TimeoutException, InterruptedException, ExecutionException {
		if (!placement.onCallerThread()) {
			return this.executor.run(() -> limited(call, limit, placement), limit);
		}
		try {
			return limited(call, limit, placement);
		}
		catch (Exception ex) {
			if (Thread.currentThread().isInterrupted()) {
				throw new InterruptedException("Caller interrupted");
			}
			throw new ExecutionException(ex);
		}
	}

	private <T> T limited(Attempt<T> call, Duration limit, AttemptPlacement placement) throws Exception {
		try (AttemptLimit attempt = AttemptLimit.begin(limit, () -> placement.learn(true, name(), true))) {
			boolean sent = false;
			try {
				T answer = call.call(limit);
				sent = true;
				return answer;
			}
			catch (java.io.IOException | java.io.UncheckedIOException ex) {
				// The request went out (or tried to): what the client did with the limit is known.
				sent = true;
				throw ex;
			}
			finally {
				placement.learn(attempt.claimed(), name(), sent);
			}
		}
	}

	private DependencyUnavailableException timedOut(long started, Duration limit, Throwable timeout,
			boolean byCaller) {
		Throwable failure = byCaller ? new CallerDeadlineExceededException(limit.toMillis(), timeout) : timeout;
		recordFailure(started, failure);
		return new DependencyUnavailableException(name(), Reason.TIMEOUT,
				byCaller ? failure.getMessage() : "no answer within " + limit.toMillis() + " ms", failure);
	}

	private CancellationException cancelled() {
		// The caller gave up: no evidence about the dependency.
		this.breaker.releasePermission();
		Thread.currentThread().interrupt();
		return new CancellationException("Call to '" + name() + "' cancelled by its caller");
	}

	/**
	 * Wait what the retry asked for before the next attempt, unless it asked for none or the
	 * wait would end past the budget (then the caller gets the answer it has).
	 * @param wait the wait in milliseconds, negative for no further attempt
	 * @return whether to try again
	 */
	private boolean waitBeforeRetry(long wait, Instant end) {
		if (!mayWait(wait, end)) {
			return false;
		}
		try {
			this.sleeper.sleep(Duration.ofMillis(wait));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("Call to '" + name() + "' cancelled by its caller");
		}
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
		CallBudget budget = this.dependency.calls();
		Instant start = this.clock.instant();
		Instant end = start.plus(retries(method) ? budget.retry().budget() : budget.timeout());
		boolean callers = deadline != null && deadline.isBefore(end);
		if (callers) {
			end = deadline;
		}
		if (end.isAfter(start)) {
			end = end.minus(answerReserve(Duration.between(start, end)));
		}
		return new CallEnd(end, callers);
	}

	/**
	 * Return whether an attempt that timed out with a limit was cut short by its caller: the
	 * request's deadline ends the call, and left the attempt less than the dependency's time
	 * limit. Such a time-out says nothing of the dependency, which was not given its time.
	 * @param end the call's end
	 * @param limit the attempt's time limit
	 */
	boolean cutShortByCaller(CallEnd end, Duration limit) {
		return end.callers() && limit.compareTo(this.dependency.calls().timeout()) < 0;
	}

	/**
	 * Return the time left until a call's {@linkplain #end end}: zero or less when it has passed.
	 */
	Duration timeLeft(Instant end) {
		return Duration.between(this.clock.instant(), end);
	}

	/**
	 * Return whether a wait the retry asked for may begin: it asked for one (not a negative
	 * number), and it would end before the call's {@linkplain #end end}.
	 * @param wait the wait in milliseconds, negative for no further attempt
	 */
	boolean mayWait(long wait, Instant end) {
		return wait >= 0 && this.clock.instant().plusMillis(wait).isBefore(end);
	}

	/**
	 * The Resilience4j retry settings of a policy: its attempts, which answers and failures are
	 * retried, and the wait before each retry (the server's {@code Retry-After} capped, else the
	 * backoff). The budget is the guard's.
	 */
	static RetryConfig retryConfig(RetryPolicy policy) {
		return RetryConfig.<CallOutcome>custom()
			.maxAttempts(policy.maxAttempts())
			.retryOnResult(CallOutcome::retryable)
			.retryOnException(DependencyGuard::isConnectionError)
			.intervalBiFunction((attempt, answer) -> {
				Duration retryAfter = answer.isRight() ? answer.get().retryAfter() : null;
				Duration wait = (retryAfter != null) ? min(retryAfter, policy.maxRetryAfter())
						: backoff(attempt, policy);
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
	 * Return whether a failure, or one of its causes, is a time-out: the guard's or Reactor's
	 * {@code TimeoutException} (a {@link CallerDeadlineExceededException} too), the JDK
	 * client's {@code HttpTimeoutException}, or an interrupted I/O that no interrupt caused
	 * (Apache HttpClient's response, connect and connection-request time-outs). The one test
	 * of every guarded client, the gateway's included.
	 * @param failure the failure
	 * @return whether it is a time-out
	 */
	public static boolean isTimeout(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof java.net.http.HttpTimeoutException || cause instanceof TimeoutException
					|| cause instanceof java.io.InterruptedIOException) {
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

	/**
	 * How the guard waits before a retry: {@code Thread.sleep} (a virtual thread unmounts), a
	 * clock that a test moves in tests.
	 */
	@FunctionalInterface
	interface Sleeper {

		Sleeper THREAD = (wait) -> Thread.sleep(wait.toMillis());

		void sleep(Duration wait) throws InterruptedException;

	}

	/**
	 * Where the attempts of the calls through one HTTP client run. A client is known to enforce
	 * the limit once an attempt's {@link AttemptLimit} was claimed; from then on its attempts run
	 * on the caller's thread. Should an attempt on the caller's thread go unclaimed (the client
	 * was replaced), the next ones run on the executor again.
	 */
	static final class AttemptPlacement {

		/** Always on the executor: code that no client hook sees. */
		static final AttemptPlacement THREAD = new AttemptPlacement(false, (dependency) -> {
		});

		private final boolean learns;

		private final Consumer<String> unbounded;

		private volatile boolean callerThread;

		private volatile boolean toldUnbounded;

		private AttemptPlacement(boolean learns, Consumer<String> unbounded) {
			this.learns = learns;
			this.unbounded = unbounded;
		}

		/**
		 * Return a placement that starts on the executor and learns from its client.
		 * @return a new placement
		 */
		static AttemptPlacement learning() {
			return learning((dependency) -> {
			});
		}

		/**
		 * Return a placement that starts on the executor, learns from its client, and says so
		 * the first time an attempt of its ended without its client enforcing the limit.
		 * @param unbounded told the dependency of that attempt, once
		 * @return a new placement
		 */
		static AttemptPlacement learning(Consumer<String> unbounded) {
			return new AttemptPlacement(true, unbounded);
		}

		boolean onCallerThread() {
			return this.callerThread;
		}

		/**
		 * Learn from an attempt whether its client enforces the limit.
		 * @param claimed whether the client claimed the attempt's limit
		 * @param dependency the dependency called
		 * @param sent whether the attempt got as far as the client's I/O (an answer or an I/O
		 * failure), so that an unclaimed limit says something of the client, not of code before
		 * it that failed (a load balancer without an instance)
		 */
		void learn(boolean claimed, String dependency, boolean sent) {
			if (!this.learns || (!claimed && !sent)) {
				return;
			}
			if (!claimed && !this.callerThread && !this.toldUnbounded) {
				this.toldUnbounded = true;
				this.unbounded.accept(dependency);
			}
			if (claimed == this.callerThread) {
				return;
			}
			this.callerThread = claimed;
			if (claimed) {
				logger.debug("The HTTP client of calls to '" + dependency
						+ "' enforces their time limit: they run on their caller's thread");
			}
			else {
				logger.warn("The HTTP client of calls to '" + dependency + "' did not enforce their time limit "
						+ "(a request factory without the starter's per-request timeout?): they run on the "
						+ "guards' bounded executor again");
			}
		}

	}

	/**
	 * When a call must have its answer.
	 *
	 * @param at the instant
	 * @param callers whether the request's deadline set it, before the dependency's own time
	 * limit or budget would have
	 */
	record CallEnd(Instant at, boolean callers) {

	}

}
