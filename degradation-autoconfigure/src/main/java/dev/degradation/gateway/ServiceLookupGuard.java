package dev.degradation.gateway;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.ReactiveLoadBalancerClientFilter;
import org.springframework.cloud.gateway.support.NotFoundException;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

import dev.degradation.client.DependencyGuard;
import dev.degradation.client.DependencyGuards;
import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.manifest.ServiceUrl;

/**
 * Guards the load balancer's search for an instance of a service a gateway route names by id
 * ({@code lb://SERVICE-ID}) when the manifest declares the service as a dependency: a service
 * whose last instance left discovery fails in the load balancer's filter, before the call is made
 * and before {@link GatewayCallGuard} sees it. Such a call is a failure of the dependency, heard
 * by its breaker as a call that found nothing listening, and answered as a guarded call that got
 * no answer ({@link DependencyUnavailableException.Reason#NO_INSTANCE}, or
 * {@link DependencyUnavailableException.Reason#BREAKER_OPEN} when the breaker keeps calls back),
 * so that a route that requires the service gets its declared fallback, also when the route's
 * {@code CircuitBreaker} filter caught the failure first. Without it, the load balancer's 503
 * reached the caller, or the application's own fallback answered unmarked, and the breaker never
 * opened.
 */
public class ServiceLookupGuard implements GlobalFilter, Ordered {

	/** Just before the load balancer's filter, so that its failure passes through this one. */
	public static final int DEFAULT_ORDER = ReactiveLoadBalancerClientFilter.LOAD_BALANCER_CLIENT_FILTER_ORDER - 1;

	private final DependencyGuards guards;

	/**
	 * Create a filter.
	 * @param guards the guards to look the routes' services up in
	 */
	public ServiceLookupGuard(DependencyGuards guards) {
		this.guards = guards;
	}

	@Override
	public int getOrder() {
		return DEFAULT_ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		URI url = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR);
		if (!ServiceUrl.isServiceUrl(url) || ServerWebExchangeUtils.isAlreadyRouted(exchange)) {
			return chain.filter(exchange);
		}
		DependencyGuard guard = this.guards.forUrl(url);
		if (guard == null) {
			return chain.filter(exchange);
		}
		return chain.filter(exchange).onErrorMap(
				(failure) -> failure instanceof NotFoundException && foundNoInstance(exchange),
				(failure) -> refused(guard, failure));
	}

	/** The load balancer replaces the route's {@code lb} URL once it found an instance. */
	private static boolean foundNoInstance(ServerWebExchange exchange) {
		return ServiceUrl.isServiceUrl(exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR));
	}

	private static Throwable refused(DependencyGuard guard, Throwable failure) {
		String dependency = guard.dependency().name();
		CircuitBreaker breaker = guard.circuitBreaker();
		if (!breaker.tryAcquirePermission()) {
			return new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "Backend '" + dependency + "' unavailable",
					new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.BREAKER_OPEN,
							"circuit breaker " + breaker.getState(), failure));
		}
		breaker.onError(0, TimeUnit.NANOSECONDS, failure);
		return new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE,
				"Backend '" + dependency + "' has no instance",
				new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.NO_INSTANCE,
						String.valueOf(failure.getMessage()), failure));
	}

}
