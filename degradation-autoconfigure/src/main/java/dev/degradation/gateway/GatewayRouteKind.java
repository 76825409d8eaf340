package dev.degradation.gateway;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

import dev.degradation.web.RequestDecider;

/**
 * Names a gateway's request by the route it was forwarded by, for admission's adaptive limit
 * ({@link RequestDecider#HANDLED_ROUTE_ATTRIBUTE}). A gateway's handler has no path pattern of
 * Spring's, so without this every request the manifest does not name would share one no-load
 * latency: a fast route's answers would read as a queue in front of a slow one, and the limit
 * would fall to one. The route's id is bounded by the gateway's configuration, never by what a
 * caller sends.
 */
public final class GatewayRouteKind implements GlobalFilter, Ordered {

	private static final String PREFIX = "gateway route ";

	/**
	 * Routes a discovery locator makes come and go with services, so the names kept are capped;
	 * past the cap a name is built per request, as it was before there was a cache.
	 */
	private static final int MAX_KEPT = 1024;

	private final Map<String, String> kinds = new ConcurrentHashMap<>();

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		if (route != null) {
			exchange.getAttributes().putIfAbsent(RequestDecider.HANDLED_ROUTE_ATTRIBUTE, kindOf(route.getId()));
		}
		return chain.filter(exchange);
	}

	String kindOf(String routeId) {
		String kind = this.kinds.get(routeId);
		if (kind != null) {
			return kind;
		}
		kind = PREFIX + routeId;
		if (this.kinds.size() < MAX_KEPT) {
			this.kinds.putIfAbsent(routeId, kind);
		}
		return kind;
	}

	/**
	 * Run first: the route is known before any global filter runs, and a filter that answers on
	 * its own still ends a request of this route.
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
