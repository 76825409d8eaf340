package dev.degradation.gateway;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

import dev.degradation.client.CallDeadline;
import dev.degradation.client.CallOutcome;
import dev.degradation.client.CallerDeadlineExceededException;
import dev.degradation.client.DependencyGuard;
import dev.degradation.client.DependencyGuards;
import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.client.JudgedAnswer;
import dev.degradation.client.SimulatedCalls;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.manifest.ServiceUrl;

/**
 * Guards the calls a Spring Cloud Gateway proxies to a backend that the manifest declares as a
 * dependency (the call's URL is under the dependency's {@code base_url}, or the route's
 * {@code lb://SERVICE-ID} names the service of a {@code base_url: lb://SERVICE-ID}, whatever
 * instance the load balancer chose), as the starter guards a
 * {@code RestClient}'s calls: the dependency's circuit breaker lets the call go or keeps it back,
 * and hears how it ended, so that a backend failing under gateway traffic opens its breaker and
 * the routes that require it are shed at once, without waiting for a probe window. Proxied calls
 * elsewhere pass untouched, but for the deadline they pass on.
 *
 * <p>How a call ends: an answer with a 5xx status, a connection error or a time-out is a failure;
 * any other answer a success, its duration judged against the breaker's slow-call threshold; a
 * client that left is no evidence, and neither is a time-out that the caller's own deadline set
 * (the caller did not wait for the backend's time limit: the backend broke no promise). A call the
 * breaker keeps back, that timed out or got no connection fails with a
 * {@link ResponseStatusException} (503, 504, 502) whose cause is a
 * {@link DependencyUnavailableException}, so that the reactive web filter answers a route that
 * requires the backend with its fallback, and any other route gets the status.
 *
 * <p>The time limit is the gateway's own: a route that sets no {@code response-timeout} in its
 * metadata gets the dependency's {@code call_timeout_ms} (by default its {@code timeout_ms}) as
 * one for this call, so the gateway's HTTP client gives up in time and nothing of ours waits or
 * holds a thread. A route's own {@code response-timeout} wins (the gateway's operator set it for
 * this route); the dependency's time limit wins over the gateway-wide
 * {@code spring.cloud.gateway.server.webflux.httpclient.response-timeout}, as a route's does.
 * Either is cut to the time the caller still waits (the deadline the request arrived with).
 *
 * <p>The gateway's response timeout ends when the answer's headers arrive; its body is bounded
 * here: once the headers are in, the backend's connection may stay silent no longer than the
 * call's time limit (the smaller of the route's or dependency's and the caller's time left then).
 * A body that stalls longer is cut off: the backend's connection is closed, so the caller's answer
 * ends (a 504, or the fallback of a route that requires the backend, if nothing of the body was
 * sent yet; else a connection closed before the announced end of the body) instead of hanging,
 * and the stall counts as a failure of the backend unless the caller's deadline set the bound.
 *
 * <p>The deadline header a request arrived with is passed on with the time left when the gateway
 * makes the call, not with the caller's original value, so that a backend with the starter does
 * not work for a caller that has given up.
 *
 * <p>It runs after the gateway has resolved the call's URL (after {@code RouteToRequestUrlFilter}
 * and the load balancer's filter) and before the routing filter that makes the call.
 */
public class GatewayCallGuard implements GlobalFilter, Ordered {

	/**
	 * The default order: after the load balancer's filter (order 10150), which turns an
	 * {@code lb://} URL into the address called, and before the routing filters (the lowest
	 * precedence).
	 */
	public static final int DEFAULT_ORDER = RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER + 151;

	private final DependencyGuards guards;

	private final String deadlineHeader;

	private final Clock clock;

	private final int order;

	/**
	 * Create a filter.
	 * @param guards the guards to look the calls' URLs up in
	 * @param deadlineHeader the request header that carries the caller's deadline, in milliseconds
	 * left, passed on with the time left when the call is made
	 * @param clock the clock the caller's deadline is measured against
	 * @param order the filter's order among the gateway's global filters
	 */
	public GatewayCallGuard(DependencyGuards guards, String deadlineHeader, Clock clock, int order) {
		this.guards = guards;
		this.deadlineHeader = deadlineHeader;
		this.clock = clock;
		this.order = order;
	}

	@Override
	public int getOrder() {
		return this.order;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		URI url = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR);
		if (url == null || ServerWebExchangeUtils.isAlreadyRouted(exchange)) {
			return chain.filter(exchange);
		}
		DependencyGuard guard = guardOf(exchange, url);
		return Mono.deferContextual((context) -> {
			Object deadline = context.getOrDefault(CallDeadline.KEY, null);
			Duration left = (deadline instanceof Instant end) ? Duration.between(this.clock.instant(), end) : null;
			RequestSimulation simulation = (guard != null) ? context.getOrDefault(RequestSimulation.KEY, null) : null;
			if (guard != null) {
				DependencyUnavailableException simulated = SimulatedCalls.refused(simulation, guard.dependency().name());
				if (simulated != null) {
					return Mono.error(new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE,
							"Backend '" + guard.dependency().name() + "' simulated as failed", simulated));
				}
			}
			ServerWebExchange passing = passSimulationOn(passDeadlineOn(exchange, left), simulation);
			return (guard != null) ? guarded(passing, chain, guard, left) : chain.filter(passing);
		});
	}

	/**
	 * Pass a request's own simulation on to a backend that is a dependency, and to no other; the
	 * gateway copies a request's headers to the backend, so a simulation header that did not pass
	 * the token check (or is for a backend that is no dependency) is removed, not passed on.
	 */
	private static ServerWebExchange passSimulationOn(ServerWebExchange exchange,
			@Nullable RequestSimulation simulation) {
		if (simulation == null && !SimulatedCalls.carried(exchange.getRequest().getHeaders())) {
			return exchange;
		}
		return exchange.mutate()
			.request((request) -> request.headers((headers) -> SimulatedCalls.passOn(headers, simulation)))
			.build();
	}

	/**
	 * Return the guard of the call: of the service a route's {@code lb://SERVICE-ID} names,
	 * whichever instance the load balancer chose, else of the address called. The load
	 * balancer's filter keeps the {@code lb} URL among the request's original URLs.
	 */
	private @Nullable DependencyGuard guardOf(ServerWebExchange exchange, URI url) {
		Set<URI> originals = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ORIGINAL_REQUEST_URL_ATTR);
		if (originals != null) {
			for (URI original : originals) {
				if (ServiceUrl.isServiceUrl(original)) {
					DependencyGuard guard = this.guards.forUrl(original);
					if (guard != null) {
						return guard;
					}
				}
			}
		}
		return this.guards.forUrl(url);
	}

	/**
	 * Pass the time the caller still waits on in the deadline header, in place of the value the
	 * request arrived with: the gateway copies a request's headers to the backend, and the time
	 * spent since the request arrived (admission, the gateway's filters) is the caller's too.
	 */
	private ServerWebExchange passDeadlineOn(ServerWebExchange exchange, @Nullable Duration left) {
		if (left == null || !exchange.getRequest().getHeaders().containsHeader(this.deadlineHeader)) {
			return exchange;
		}
		String millis = Long.toString(Math.max(0, left.toMillis()));
		return exchange.mutate()
			.request((request) -> request.headers((headers) -> headers.set(this.deadlineHeader, millis)))
			.build();
	}

	private Mono<Void> guarded(ServerWebExchange exchange, GatewayFilterChain chain, DependencyGuard guard,
			@Nullable Duration left) {
		String dependency = guard.dependency().name();
		if (left != null && (left.isNegative() || left.isZero())) {
			// The caller has given up: the backend is not called for it, and the breaker learns
			// nothing of the backend from it.
			return Mono.error(new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT,
					"The caller's deadline has passed",
					new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.TIMEOUT,
							"the caller's deadline has passed", null)));
		}
		Limit limit = limitTime(exchange, guard.dependency().calls().timeout(), left);
		Call call = new Call(guard.circuitBreaker(), limit);
		// Resilience4j's operator acquires the breaker's permission when the call is made and
		// records how it ended, as for a WebClient's call: the answer's status judged by the
		// breaker's result predicate, a failure as an error (one the caller's deadline set is
		// ignored), a client that left as no call at all.
		return chain.filter(exchange)
			.onErrorMap(GatewayCallGuard::asTimeout)
			.onErrorMap((failure) -> limit.callers() && DependencyGuard.isTimeout(failure),
					(failure) -> new CallerDeadlineExceededException(limit.millis(), failure))
			.then(Mono.fromSupplier(() -> judged(exchange)))
			.transformDeferred(CircuitBreakerOperator.of(guard.circuitBreaker()))
			.doOnNext((judged) -> {
				guard.recordTime(null);
				call.answered(judged.outcome().failure());
				boundBody(exchange, call);
			})
			.onErrorMap((failure) -> failed(guard, failure))
			.then();
	}

	private JudgedAnswer<ServerHttpResponse> judged(ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		HttpStatusCode status = response.getStatusCode();
		CallOutcome outcome = (status != null) ? CallOutcome.ofHttpStatus(status.value(),
				response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER), this.clock) : CallOutcome.SUCCESS;
		return new JudgedAnswer<>(response, outcome);
	}

	/**
	 * The answer of a call that got none: a {@link ResponseStatusException} that carries a
	 * {@link DependencyUnavailableException}, so that the reactive web filter answers a route
	 * that requires the backend with its fallback.
	 */
	private static Throwable failed(DependencyGuard guard, Throwable failure) {
		String dependency = guard.dependency().name();
		if (failure instanceof CallNotPermittedException) {
			return new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "Backend '" + dependency + "' unavailable",
					new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.BREAKER_OPEN,
							"circuit breaker " + guard.circuitBreaker().getState(), null));
		}
		guard.recordTime(failure);
		if (DependencyGuard.isTimeout(failure)) {
			DependencyUnavailableException timedOut = new DependencyUnavailableException(dependency,
					DependencyUnavailableException.Reason.TIMEOUT, String.valueOf(failure.getMessage()), failure);
			if (failure instanceof CallerDeadlineExceededException) {
				// The caller has given up: nothing for a retry to answer.
				return new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT,
						"Backend '" + dependency + "' timed out", timedOut);
			}
			Throwable gatewayTimeout = gatewayTimeout(failure);
			return unanswered(HttpStatus.GATEWAY_TIMEOUT, "Backend '" + dependency + "' timed out",
					(gatewayTimeout != null) ? gatewayTimeout : failure, timedOut);
		}
		if (failure instanceof ResponseStatusException) {
			// Already an answer the gateway chose (a filter's status): not ours to change.
			return failure;
		}
		// A connection refused or reset: no answer from the backend. The I/O error is what tells
		// the web filter that the call got no answer, and an application's Retry filter that it
		// may try again.
		return unanswered(HttpStatus.BAD_GATEWAY, "Backend '" + dependency + "' gave no answer", failure,
				new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.FAILED,
						String.valueOf(failure.getMessage()), failure));
	}

	/**
	 * The answer of a call that got none, shaped as the gateway's own: a status exception whose
	 * direct cause is the failure as the gateway raised it (the I/O error, the gateway's
	 * {@code TimeoutException}), since the gateway's {@code Retry} filter looks no further than a
	 * failure's direct cause for the exceptions it retries. The guard's own verdict, which the
	 * request decision reads from a failure, travels with it as a suppressed exception, so that a
	 * route that requires the backend still gets its fallback once the application's retries are
	 * spent.
	 */
	private static ResponseStatusException unanswered(HttpStatus status, String reason, Throwable raised,
			DependencyUnavailableException unavailable) {
		ResponseStatusException answer = new ResponseStatusException(status, reason, raised);
		answer.addSuppressed(unavailable);
		return answer;
	}

	/**
	 * Return the gateway's own {@code TimeoutException} (its response timeout) in a time-out's
	 * cause chain, or {@code null} for a time-out the gateway did not raise.
	 */
	private static @Nullable Throwable gatewayTimeout(Throwable failure) {
		Throwable cause = failure;
		for (int depth = 0; cause != null && depth < 16; depth++) {
			if (cause instanceof org.springframework.cloud.gateway.support.TimeoutException) {
				return cause;
			}
			cause = (cause.getCause() != cause) ? cause.getCause() : null;
		}
		return null;
	}

	/**
	 * Translate the gateway's response timeout (a 504 {@link ResponseStatusException} caused by
	 * the gateway's own {@code TimeoutException}, no JDK one) into the JDK's
	 * {@code TimeoutException}, which every guard's one {@link DependencyGuard#isTimeout} test
	 * knows.
	 */
	private static Throwable asTimeout(Throwable failure) {
		Throwable timeout = gatewayTimeout(failure);
		if (timeout == null) {
			return failure;
		}
		TimeoutException translated = new TimeoutException(timeout.getMessage());
		translated.initCause(failure);
		return translated;
	}

	/**
	 * Give the route the call's time limit as its {@code response-timeout} for this call: the
	 * dependency's, unless the route has one, and never more than the time its caller still waits
	 * (the deadline the request arrived with, in the Reactor context). The routing filter reads
	 * the route from the exchange when it makes the call, so a copy of the route with the timeout
	 * in its metadata is what it sees; the copy costs a few objects beside a proxied call's
	 * buffers and connection.
	 * @return the time limit of the call, and whether the caller's deadline set it
	 */
	private static Limit limitTime(ServerWebExchange exchange, Duration timeout, @Nullable Duration left) {
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		Object own = (route != null) ? route.getMetadata().get(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR) : null;
		if (own instanceof Number ownMillis && ownMillis.longValue() < 0) {
			// The route's operator turned its response timeout off (a stream, a long poll): so it
			// stays, body included.
			return new Limit(0, false);
		}
		// A route's own setting in another form than a number is the gateway's to read: left as
		// it is, and the body bounded by the dependency's limit.
		long set = (own instanceof Number ownMillis && ownMillis.longValue() >= 0) ? ownMillis.longValue()
				: timeout.toMillis();
		boolean callers = left != null && left.toMillis() < set;
		Limit limit = new Limit(Math.max(1, callers ? left.toMillis() : set), callers);
		if (route == null || (own != null && !callers)) {
			return limit;
		}
		if (own != null && !(own instanceof Number)) {
			return new Limit(set, false);
		}
		Map<String, Object> metadata = new LinkedHashMap<>(route.getMetadata());
		metadata.put(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR, limit.millis());
		Route limited = Route.async()
			.id(route.getId())
			.uri(route.getUri())
			.order(route.getOrder())
			.asyncPredicate(route.getPredicate())
			.replaceFilters(route.getFilters())
			.replaceMetadata(metadata)
			.build();
		exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, limited);
		return limit;
	}

	/**
	 * Bound the body of the answer whose headers have arrived: the backend's connection may be
	 * silent no longer than the call's time limit. Closing it ends the body the gateway copies to
	 * its caller. A handler left on a connection that went back to its pool does nothing once the
	 * body it watched has ended, and the next guarded call on the connection replaces it.
	 */
	private static void boundBody(ServerWebExchange exchange, Call call) {
		Connection connection = exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR);
		if (connection == null || call.limit.millis() <= 0) {
			return;
		}
		connection.onTerminate().subscribe(null, (Throwable failure) -> call.bodyEnded(), call::bodyEnded);
		connection.onReadIdle(call.limit.millis(), () -> {
			if (call.stalled()) {
				connection.channel().close();
			}
		});
	}

	/**
	 * The time limit of one call.
	 *
	 * @param millis the limit in milliseconds; 0 for none (the route turned its timeout off)
	 * @param callers whether the caller's deadline set it, shorter than the backend's own
	 */
	private record Limit(long millis, boolean callers) {

	}

	/**
	 * The body of one proxied call whose answer's headers have arrived: tells the breaker, once,
	 * of a body that stalled after a good answer's headers.
	 */
	private static final class Call {

		private final CircuitBreaker breaker;

		private final Limit limit;

		private final long started;

		private boolean stalled;

		private boolean succeeded;

		private boolean bodyEnded;

		Call(CircuitBreaker breaker, Limit limit) {
			this.breaker = breaker;
			this.limit = limit;
			this.started = breaker.getCurrentTimestamp();
		}

		synchronized void answered(boolean failure) {
			this.succeeded = !failure;
		}

		synchronized void bodyEnded() {
			this.bodyEnded = true;
		}

		/**
		 * Learn that the body has been silent for the call's time limit.
		 * @return whether it had not ended yet, and is to be cut off
		 */
		synchronized boolean stalled() {
			if (this.bodyEnded || this.stalled) {
				return false;
			}
			this.stalled = true;
			// Not when the caller's deadline set the bound. The operator judged the answer's
			// headers already, and the gateway writes the body only once this filter's part of
			// the chain has ended: the stall is one more failure of the backend, recorded as the
			// breaker records an error (it needs no permission).
			if (this.succeeded && !this.limit.callers()) {
				this.breaker.onError(this.breaker.getCurrentTimestamp() - this.started,
						this.breaker.getTimestampUnit(),
						new TimeoutException("body stalled for " + this.limit.millis() + " ms after the headers"));
			}
			return true;
		}

	}

}
