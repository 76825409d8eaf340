package dev.degradation.web.reactive;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebExchangeDecorator;
import org.springframework.web.server.WebHandler;

import dev.degradation.web.RequestDecider;

/**
 * Gives a route the declared fallback, not the application's own, when the application's own
 * resilience caught a guarded call's failure and sent the request on to a fallback of its own:
 * a Spring Cloud Gateway {@code CircuitBreaker} filter with a {@code fallbackUri} keeps the
 * failure in an exchange attribute and dispatches the request anew to its fallback, so the
 * failure never reaches {@link DegradationWebFilter}, and the application's fallback answered
 * every call until the starter's breaker opened.
 *
 * <p>First among the handler mappings, it maps such a dispatch, when the request's route (as it
 * came in) requires the failed call's dependency, to a handler that fails with the caught
 * failure: the application's resilience passes its fallback's failure on (the gateway's filter
 * does, unless told to resume without error), and {@link DegradationWebFilter} answers the route
 * with its declared fallback. Any other dispatch, and any other failure (the application's own
 * breaker open, its own time limit), goes to the application's fallback as before. Per request it
 * costs one attribute lookup.
 */
public final class RefusedCallForwardMapping implements HandlerMapping, Ordered {

	private final RequestDecider decider;

	private final String failureAttribute;

	/**
	 * Create a mapping.
	 * @param decider the decision, which knows the routes and reads a guarded call's failure
	 * @param failureAttribute the exchange attribute in which the application's resilience keeps
	 * the failure it caught before it sends the request to its fallback
	 */
	public RefusedCallForwardMapping(RequestDecider decider, String failureAttribute) {
		this.decider = decider;
		this.failureAttribute = failureAttribute;
	}

	@Override
	public Mono<Object> getHandler(ServerWebExchange exchange) {
		Object caught = exchange.getAttribute(this.failureAttribute);
		if (!(caught instanceof Throwable failure)
				|| !this.decider.requiresRefused(new ExchangeView(received(exchange).getRequest()), failure)) {
			return Mono.empty();
		}
		WebHandler failing = (forwarded) -> Mono.error(failure);
		return Mono.just(failing);
	}

	/**
	 * The exchange as it came in: the fallback's dispatch and the gateway's filters (a prefix
	 * stripped, a path rewritten) decorate it with requests of their own.
	 */
	private static ServerWebExchange received(ServerWebExchange exchange) {
		ServerWebExchange received = exchange;
		while (received instanceof ServerWebExchangeDecorator decorator) {
			received = decorator.getDelegate();
		}
		return received;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
