package dev.degradation.gateway;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

import dev.degradation.client.CallDeadline;
import dev.degradation.client.DependencyGuard;
import dev.degradation.client.DependencyGuards;
import dev.degradation.client.DependencyUnavailableException;

/**
 * Guards the calls a Spring Cloud Gateway proxies to a backend that the manifest declares as a
 * dependency (the call's URL is under the dependency's {@code base_url}), as the starter guards a
 * {@code RestClient}'s calls: the dependency's circuit breaker lets the call go or keeps it back,
 * and hears how it ended, so that a backend failing under gateway traffic opens its breaker and
 * the routes that require it are shed at once, without waiting for a probe window. Proxied calls
 * elsewhere pass untouched.
 *
 * <p>How a call ends: an answer with a 5xx status, a connection error or a time-out is a failure;
 * any other answer a success, its duration judged against the breaker's slow-call threshold; a
 * client that left is no evidence. A call the breaker keeps back, that timed out or got no
 * connection fails with a {@link ResponseStatusException} (503, 504, 502) whose cause is a
 * {@link DependencyUnavailableException}, so that the reactive web filter answers a route that
 * requires the backend with its fallback, and any other route gets the status.
 *
 * <p>The time limit is the gateway's own: a route that sets no {@code response-timeout} in its
 * metadata gets the dependency's {@code call_timeout_ms} (by default its {@code timeout_ms}) as
 * one for this call, so the gateway's HTTP client gives up in time and nothing of ours waits or
 * holds a thread. A route's own
 * {@code response-timeout} wins (the gateway's operator set it for this route); the dependency's
 * time limit wins over the gateway-wide
 * {@code spring.cloud.gateway.server.webflux.httpclient.response-timeout}, as a route's does.
 * The gateway's response timeout ends when the answer's headers arrive: a body that stalls after
 * them is the gateway's business, not this guard's.
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

	private final int order;

	/**
	 * Create a filter.
	 * @param guards the guards to look the calls' URLs up in
	 * @param order the filter's order among the gateway's global filters
	 */
	public GatewayCallGuard(DependencyGuards guards, int order) {
		this.guards = guards;
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
		DependencyGuard guard = this.guards.forUrl(url);
		if (guard == null) {
			return chain.filter(exchange);
		}
		return Mono.deferContextual((context) -> guarded(exchange, chain, guard,
				context.getOrDefault(CallDeadline.CONTEXT_KEY, null)));
	}

	private Mono<Void> guarded(ServerWebExchange exchange, GatewayFilterChain chain, DependencyGuard guard,
			@Nullable Object deadline) {
		String dependency = guard.dependency().name();
		Duration left = (deadline instanceof Instant end) ? Duration.between(Instant.now(), end) : null;
		if (left != null && (left.isNegative() || left.isZero())) {
			// The caller has given up: the backend is not called for it, and the breaker learns
			// nothing of the backend from it.
			return Mono.error(new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT,
					"The caller's deadline has passed",
					new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.TIMEOUT,
							"the caller's deadline has passed", null)));
		}
		CircuitBreaker breaker = guard.circuitBreaker();
		if (!breaker.tryAcquirePermission()) {
			return Mono.error(new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE,
					"Backend '" + dependency + "' unavailable",
					new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.BREAKER_OPEN,
							"circuit breaker " + breaker.getState(), null)));
		}
		limitTime(exchange, guard.dependency().calls().timeout(), left);
		Call call = new Call(breaker, System.nanoTime());
		return chain.filter(exchange)
			.doOnSuccess((Void done) -> call.answered(exchange.getResponse().getStatusCode()))
			.onErrorMap((Throwable failure) -> call.failed(dependency, failure))
			.doFinally((SignalType signal) -> {
				if (signal == SignalType.CANCEL) {
					call.cancelled();
				}
			});
	}

	/**
	 * Give the route the dependency's time limit as its {@code response-timeout} for this call,
	 * unless the route has one, and never more than the time its caller still waits (the
	 * deadline the request arrived with, in the Reactor context). The routing filter reads the route from the exchange when it makes
	 * the call, so a copy of the route with the timeout in its metadata is what it sees; the copy
	 * costs a few objects beside a proxied call's buffers and connection.
	 */
	private static void limitTime(ServerWebExchange exchange, Duration timeout, @Nullable Duration left) {
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		if (route == null) {
			return;
		}
		Object own = route.getMetadata().get(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR);
		long limit;
		if (own instanceof Number ownMillis) {
			if (left == null || ownMillis.longValue() <= left.toMillis()) {
				return;
			}
			limit = left.toMillis();
		}
		else if (own != null) {
			// A route's own setting in another form is the gateway's to read: left as it is.
			return;
		}
		else {
			limit = (left != null && left.compareTo(timeout) < 0) ? left.toMillis() : timeout.toMillis();
		}
		Map<String, Object> metadata = new LinkedHashMap<>(route.getMetadata());
		metadata.put(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR, Math.max(1, limit));
		Route limited = Route.async()
			.id(route.getId())
			.uri(route.getUri())
			.order(route.getOrder())
			.asyncPredicate(route.getPredicate())
			.replaceFilters(route.getFilters())
			.replaceMetadata(metadata)
			.build();
		exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, limited);
	}

	/**
	 * One proxied call the breaker let go: tells the breaker how it ended, once.
	 */
	private static final class Call {

		private final CircuitBreaker breaker;

		private final long started;

		private boolean ended;

		Call(CircuitBreaker breaker, long started) {
			this.breaker = breaker;
			this.started = started;
		}

		synchronized void answered(@Nullable HttpStatusCode status) {
			if (end()) {
				long took = System.nanoTime() - this.started;
				if (status != null && status.is5xxServerError()) {
					this.breaker.onError(took, TimeUnit.NANOSECONDS,
							new IllegalStateException("failed answer (" + status.value() + ") through the gateway"));
				}
				else {
					this.breaker.onSuccess(took, TimeUnit.NANOSECONDS);
				}
			}
		}

		synchronized Throwable failed(String dependency, Throwable failure) {
			if (end()) {
				this.breaker.onError(System.nanoTime() - this.started, TimeUnit.NANOSECONDS, failure);
			}
			if (isTimeout(failure)) {
				return new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT, "Backend '" + dependency + "' timed out",
						new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.TIMEOUT,
								String.valueOf(failure.getMessage()), failure));
			}
			if (failure instanceof ResponseStatusException) {
				// Already an answer the gateway chose (a filter's status): not ours to change.
				return failure;
			}
			// A connection refused or reset: no answer from the backend. The cause chain keeps the
			// I/O error, which is what tells the web filter that the call got no answer.
			return new ResponseStatusException(HttpStatus.BAD_GATEWAY, "Backend '" + dependency + "' gave no answer",
					new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.FAILED,
							String.valueOf(failure.getMessage()), failure));
		}

		synchronized void cancelled() {
			// The client left: no evidence about the backend.
			if (end()) {
				this.breaker.releasePermission();
			}
		}

		private boolean end() {
			if (this.ended) {
				return false;
			}
			this.ended = true;
			return true;
		}

	}

	/**
	 * Whether a failure is the gateway's response timeout (its own {@code TimeoutException}, or
	 * Reactor's). A connect time-out is a connection error, a failure all the same.
	 */
	private static boolean isTimeout(Throwable failure) {
		Throwable cause = failure;
		for (int depth = 0; cause != null && depth < 16; depth++) {
			if (cause instanceof org.springframework.cloud.gateway.support.TimeoutException
					|| cause instanceof java.util.concurrent.TimeoutException) {
				return true;
			}
			cause = (cause.getCause() != cause) ? cause.getCause() : null;
		}
		return false;
	}

}
