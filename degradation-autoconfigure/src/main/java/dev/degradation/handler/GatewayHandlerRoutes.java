package dev.degradation.handler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Schedulers;

import org.springframework.cloud.gateway.handler.AsyncPredicate;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.predicate.PathRoutePredicateFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.HasConfig;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpMethod;
import org.springframework.web.server.ServerWebExchange;

import dev.degradation.web.HandlerRoute;

/**
 * The routes of a Spring Cloud Gateway as handlers of the application: a proxied route is a route
 * like any other, so the manifest check, the endpoint's {@code handled} flag, {@code walk} and the
 * generated contract tests count it, beside any handler the gateway has of its own. Routes are
 * read from the gateway's {@link RouteLocator}, so routes from properties and from the Java DSL
 * are read alike.
 *
 * <p>A route is read from the leaves of its predicate: the patterns of its {@code Path}
 * predicates (or {@code /**} when it has none) and the methods of its {@code Method} predicates
 * (or every method). That reading holds while the leaves are joined by {@code and}, which is how
 * the gateway joins a route's predicates from properties. A route whose predicate negates or joins
 * by {@code or} (the Java DSL's {@code not}, {@code negate()}, {@code or()}) is taken to serve
 * every path and method, as is one whose {@code Method} predicate cannot be read: a route is
 * never taken for a typo because of a predicate this reading simplifies.
 *
 * <p>It names the gateway's types, so only {@code DegradationGatewayAutoConfiguration} refers to
 * it, once the gateway is on the class path.
 */
public class GatewayHandlerRoutes implements WebFluxHandlerContributor {

	private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

	private static final String METHODS_PREFIX = "Methods: [";

	private final RouteLocator routeLocator;

	private volatile List<HandlerRoute> lastRead = List.of();

	/**
	 * Create a reading of a gateway's routes.
	 * @param routeLocator the gateway's route locator
	 */
	public GatewayHandlerRoutes(RouteLocator routeLocator) {
		this.routeLocator = routeLocator;
	}

	/**
	 * Return the gateway's routes as handlers, read now; on a thread that must not block (an
	 * event loop), the routes read last (at startup, by the manifest check, at the latest).
	 * @return the handlers
	 */
	@Override
	public List<HandlerRoute> handlers() {
		if (Schedulers.isInNonBlockingThread()) {
			return this.lastRead;
		}
		List<Route> routes = this.routeLocator.getRoutes().collectList().block(READ_TIMEOUT);
		List<HandlerRoute> handlers = new ArrayList<>();
		if (routes != null) {
			routes.forEach((route) -> handlers.addAll(of(route)));
		}
		this.lastRead = List.copyOf(handlers);
		return handlers;
	}

	@Override
	public @Nullable String handlerName(ServerWebExchange exchange, Object handler) {
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		return (handler instanceof FilteringWebHandler && route != null) ? name(route) : null;
	}

	/**
	 * Return one handler for each path of a gateway route.
	 * @param route the route
	 * @return its handlers
	 */
	private static List<HandlerRoute> of(Route route) {
		AsyncPredicate<ServerWebExchange> predicate = route.getPredicate();
		Leaves leaves = new Leaves();
		predicate.accept(leaves);
		String name = name(route);
		if (!leaves.readable || joinsOtherwiseThanByAnd(predicate)) {
			return List.of(new HandlerRoute(Set.of(), "/**", name));
		}
		List<String> paths = leaves.paths.isEmpty() ? List.of("/**") : List.copyOf(leaves.paths);
		return paths.stream().map((path) -> new HandlerRoute(leaves.methods, path, name)).toList();
	}

	/**
	 * Return the name of a route as a handler.
	 * @param route the route
	 * @return its name, such as {@code gateway route 'catalog'}
	 */
	private static String name(Route route) {
		return "gateway route '" + route.getId() + "'";
	}

	/**
	 * Whether a predicate negates or joins by {@code or} anywhere. The gateway's visitor only
	 * hands over the leaves; the combinators say what they are in their descriptions
	 * ({@code (a || b)}, {@code !(a)}), and a leaf's own description with such characters only
	 * makes the reading wider, never narrower.
	 */
	private static boolean joinsOtherwiseThanByAnd(AsyncPredicate<ServerWebExchange> predicate) {
		String description = String.valueOf(predicate);
		return description.contains("||") || description.contains("!");
	}

	/**
	 * The leaves of a route's predicate that say which requests it may take.
	 */
	private static final class Leaves implements org.springframework.cloud.gateway.support.Visitor {

		private final Set<String> paths = new LinkedHashSet<>();

		private Set<String> methods = Set.of();

		private boolean readable = true;

		@Override
		public void visit(HasConfig leaf) {
			Object config = leaf.getConfig();
			if (config instanceof PathRoutePredicateFactory.Config path) {
				this.paths.addAll(path.getPatterns());
				return;
			}
			String description = String.valueOf(leaf);
			if (description.startsWith(METHODS_PREFIX) && description.endsWith("]")) {
				Set<String> named = methods(description.substring(METHODS_PREFIX.length(), description.length() - 1));
				if (named == null) {
					this.readable = false;
				}
				else {
					// Two Method predicates joined by 'and' take the methods both name.
					this.methods = this.methods.isEmpty() ? named
							: this.methods.stream().filter(named::contains).collect(java.util.stream.Collectors.toSet());
					if (this.methods.isEmpty()) {
						this.readable = false;
					}
				}
			}
		}

		private static @Nullable Set<String> methods(String list) {
			Set<String> methods = new LinkedHashSet<>();
			for (String method : list.split(",")) {
				String name = method.trim().toUpperCase(Locale.ROOT);
				if (name.isEmpty() || HttpMethod.valueOf(name) == null) {
					return null;
				}
				methods.add(name);
			}
			return methods.isEmpty() ? null : methods;
		}

	}

}
