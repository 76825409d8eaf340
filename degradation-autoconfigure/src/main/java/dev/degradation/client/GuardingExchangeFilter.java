package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import io.github.resilience4j.retry.Retry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;

import dev.degradation.client.DependencyUnavailableException.Reason;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.overload.PassedPriority;
import dev.degradation.overload.RequestPriority;

/**
 * Guards every call a {@code WebClient} makes to a dependency's {@code base_url} as
 * {@link GuardingInterceptor} guards a {@code RestClient}'s, with the same
 * {@link DependencyGuard}: the same Resilience4j breaker, time limiter and retry, so both
 * clients' calls count towards one breaker per dependency and its transitions reach the engine
 * alike. Calls elsewhere pass untouched.
 *
 * <p>Nothing blocks and no call holds a thread: each attempt goes through the breaker with
 * Resilience4j's {@link CircuitBreakerOperator}, is bounded by Reactor's {@code timeout} (a timer
 * on Reactor's parallel scheduler), and a retry waits on a Reactor timer too. A failed answer
 * (a 5xx) reaches the breaker as a result that its {@code recordResult} predicate counts as an
 * error, not as an error signal: turning an answer into an error would cancel the exchange, and
 * Spring's connector would then drain the body its caller is to read. The time limit of
 * an attempt is the smaller of the dependency's and the time left, which Resilience4j's
 * {@code TimeLimiterOperator} (fixed to its configured duration) cannot express; the guard
 * reports each attempt to the dependency's {@code TimeLimiter} instead. Retries are decided by
 * the dependency's {@code Retry} as for a {@code RestClient} (only its methods, only 503, 429 or
 * a connection error, {@code Retry-After} capped), and no wait begins that would end past the
 * call's budget or deadline, which Resilience4j's {@code RetryOperator} does not know of. The
 * body of an answer that is retried is released first, so its connection returns to the pool.
 *
 * <p>The deadline and priority of the request a call is made for are read through Micrometer's
 * context-propagation: from the subscriber's Reactor context under {@link CallDeadline#KEY} and
 * {@link RequestPriority#KEY}, else from the thread that starts the call (a Spring MVC
 * application that blocks on it, or a thread they were propagated to). Each
 * attempt passes the time it may take on in the deadline header; a deadline that has passed fails
 * the call at once, without reaching the dependency. An attempt that the caller's deadline ends
 * before the dependency's own time limit would ends with a
 * {@link CallerDeadlineExceededException}, which the breaker ignores: the caller's short deadline
 * is no evidence about the dependency.
 *
 * <p>A call that gets no answer (the breaker is open, an attempt times out, the budget or the
 * deadline runs out, the last attempt fails) ends with a {@link DependencyUnavailableException}.
 */
public class GuardingExchangeFilter implements ExchangeFilterFunction {

	// Leaves a thread-local that the Reactor context lacks as it is (clearMissing off).
	private static final ContextSnapshotFactory snapshots = ContextSnapshotFactory.builder().build();

	private final DependencyGuards guards;

	private final String deadlineHeader;

	private final Clock clock;

	private final @Nullable String priorityHeader;

	/**
	 * Create a filter.
	 * @param guards the guards to look calls up in
	 * @param deadlineHeader the header that passes the time left on
	 * @param clock the clock {@code Retry-After} dates are measured against
	 */
	public GuardingExchangeFilter(DependencyGuards guards, String deadlineHeader, Clock clock) {
		this(guards, deadlineHeader, clock, null);
	}

	/**
	 * Create a filter that also passes the priority of the request a call is made for on.
	 * @param guards the guards to look calls up in
	 * @param deadlineHeader the header that passes the time left on
	 * @param clock the clock {@code Retry-After} dates are measured against
	 * @param priorityHeader the header that passes the request's priority on (read from the
	 * Reactor context under {@link RequestPriority#KEY}, or from the calling thread's
	 * {@link RequestPriority}), or {@code null} to pass none
	 */
	public GuardingExchangeFilter(DependencyGuards guards, String deadlineHeader, Clock clock,
			@Nullable String priorityHeader) {
		this.guards = guards;
		this.deadlineHeader = deadlineHeader;
		this.clock = clock;
		this.priorityHeader = priorityHeader;
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		DependencyGuard guard = this.guards.forUrl(request.url());
		if (guard == null) {
			return next.exchange(SimulatedCalls.carried(request.headers())
					? ClientRequest.from(request).headers((headers) -> SimulatedCalls.passOn(headers, null)).build()
					: request);
		}
		return Mono.deferContextual((context) -> {
			// The request's deadline, priority and simulation as context-propagation sees them:
			// the Reactor context's (a WebFlux request's), else the subscribing thread's (a Spring
			// MVC caller that blocks on the call, or any thread they were propagated to).
			Instant deadline;
			Integer priority;
			RequestSimulation simulation;
			try (ContextSnapshot.Scope scope = snapshots.setThreadLocalsFrom(context, CallDeadline.KEY,
					RequestPriority.KEY, RequestSimulation.KEY)) {
				deadline = CallDeadline.current();
				priority = (this.priorityHeader != null) ? RequestPriority.current() : null;
				simulation = RequestSimulation.current();
			}
			DependencyUnavailableException simulated = SimulatedCalls.refused(simulation, guard.dependency().name());
			if (simulated != null) {
				return Mono.error(simulated);
			}
			ClientRequest passing = (simulation != null || SimulatedCalls.carried(request.headers()))
					? ClientRequest.from(request).headers((headers) -> SimulatedCalls.passOn(headers, simulation)).build()
					: request;
			return new GuardedExchange(guard, passing, (priority != null) ? PassedPriority.header(priority) : null,
					next, guard.end(request.method().name(), deadline))
				.attempt();
		});
	}

	/**
	 * One guarded call: its attempts until an answer is returned or the call gives up.
	 */
	private final class GuardedExchange {

		private final DependencyGuard guard;

		private final ClientRequest request;

		private final @Nullable String priority;

		private final ExchangeFunction next;

		private final CallTime time;

		private final CallTime.CallEnd callEnd;

		private final Instant end;

		private final Retry.@Nullable AsyncContext<CallOutcome> retrying;

		GuardedExchange(DependencyGuard guard, ClientRequest request, @Nullable String priority, ExchangeFunction next,
				CallTime.CallEnd end) {
			this.guard = guard;
			this.request = request;
			this.priority = priority;
			this.next = next;
			this.time = guard.time();
			this.callEnd = end;
			this.end = end.at();
			this.retrying = guard.retries(request.method().name()) ? guard.retry().asyncContext() : null;
		}

		Mono<ClientResponse> attempt() {
			Duration left = this.time.timeLeft(this.end);
			if (left.isNegative() || left.isZero()) {
				return Mono.error(new DependencyUnavailableException(name(), Reason.TIMEOUT,
						"no time left of its budget or deadline", null));
			}
			Duration limit = this.time.attemptLimit(left);
			// One copy of the request per attempt carries both what is passed on: the time the
			// attempt may take, and the priority of the request it is made for.
			ClientRequest attempt = ClientRequest.from(this.request).headers((headers) -> {
				headers.set(GuardingExchangeFilter.this.deadlineHeader, Long.toString(Math.max(1, limit.toMillis())));
				String priorityHeader = GuardingExchangeFilter.this.priorityHeader;
				if (this.priority != null && priorityHeader != null) {
					headers.set(priorityHeader, this.priority);
				}
			}).build();
			boolean byCaller = this.time.cutShortByCaller(this.callEnd, limit);
			// The time-out comes before the breaker's operator, which records how the attempt
			// ended: an answer (judged by the breaker's result predicate) or a failure; a time-out
			// that the caller's deadline set reaches it as the failure every breaker ignores.
			return this.next.exchange(attempt)
				.timeout(limit)
				.onErrorMap((failure) -> byCaller && DependencyGuard.isTimeout(failure),
						(failure) -> new CallerDeadlineExceededException(limit.toMillis(), failure))
				.map(this::judged)
				.transformDeferred(CircuitBreakerOperator.of(this.guard.circuitBreaker()))
				.materialize()
				.flatMap((signal) -> signal.hasValue() ? answered(signal.get()) : failed(signal.getThrowable(), limit));
		}

		private JudgedAnswer<ClientResponse> judged(ClientResponse response) {
			return new JudgedAnswer<>(response, CallOutcome.ofHttpStatus(response.statusCode().value(),
					response.headers().asHttpHeaders().getFirst("Retry-After"), GuardingExchangeFilter.this.clock));
		}

		private Mono<ClientResponse> answered(@Nullable JudgedAnswer<ClientResponse> judged) {
			if (judged == null) {
				return Mono.error(new DependencyUnavailableException(name(), Reason.FAILED, "no answer", null));
			}
			this.guard.recordTime(null);
			if (this.retrying != null) {
				long wait = this.retrying.onResult(judged.outcome());
				if (this.time.mayWait(wait, this.end)) {
					return judged.answer()
						.releaseBody()
						.onErrorResume((ex) -> Mono.empty())
						.then(Mono.delay(Duration.ofMillis(wait)))
						.then(Mono.defer(this::attempt));
				}
				this.retrying.onComplete();
			}
			return Mono.just(judged.answer());
		}

		private Mono<ClientResponse> failed(@Nullable Throwable failure, Duration limit) {
			Throwable cause = (failure != null) ? failure : new IllegalStateException("no answer");
			if (cause instanceof CallNotPermittedException) {
				CircuitBreaker breaker = this.guard.circuitBreaker();
				return Mono.error(new DependencyUnavailableException(name(), Reason.BREAKER_OPEN,
						"circuit breaker " + breaker.getState(), null));
			}
			// The breaker operator has counted it already; the time limiter hears of it here.
			this.guard.recordTime(cause);
			if (DependencyGuard.isTimeout(cause)) {
				return Mono.error(new DependencyUnavailableException(name(), Reason.TIMEOUT,
						(cause instanceof CallerDeadlineExceededException) ? cause.getMessage()
								: "no answer within " + limit.toMillis() + " ms",
						cause));
			}
			if (this.retrying != null) {
				long wait = this.retrying.onError(cause);
				if (this.time.mayWait(wait, this.end)) {
					return Mono.delay(Duration.ofMillis(wait)).then(Mono.defer(this::attempt));
				}
			}
			return Mono.error(new DependencyUnavailableException(name(), Reason.FAILED,
					String.valueOf(cause.getMessage()), cause));
		}

		private String name() {
			return this.guard.dependency().name();
		}

	}

}
