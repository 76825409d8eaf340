package dev.degradation.client;

import java.util.List;
import java.util.function.Supplier;

import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Puts the guard on the {@code WebClient}s the application builds itself, as Spring Cloud
 * LoadBalancer puts its filter on {@code @LoadBalanced} builders: a {@code WebClient.Builder} or
 * a {@code WebClient} that is a bean of the application (load-balanced or not). One that has the
 * guard already (Boot's builder, with the starter's customizer) is not guarded twice. The guard
 * comes first among the client's filters, so that it sees the URL the application called
 * ({@code http://SERVICE-ID/...}) before a load balancer's filter, added after it, rewrites it to
 * an instance. A {@code WebClient}'s calls need no thread whatever its connector: the guard bounds
 * them with Reactor's operators.
 */
public final class WebClientGuarding {

	private final Supplier<? extends GuardingExchangeFilter> filters;

	/**
	 * Create the guarding of the application's {@code WebClient}s.
	 * @param filters makes the guard of one client
	 */
	public WebClientGuarding(Supplier<? extends GuardingExchangeFilter> filters) {
		this.filters = filters;
	}

	/**
	 * Put the guard on a builder, unless it has it.
	 * @param builder the builder, changed in place
	 * @return the builder
	 */
	public WebClient.Builder guard(WebClient.Builder builder) {
		return builder.filters(this::addGuard);
	}

	/**
	 * Put the guard on a built client, unless it has it.
	 * @param client the client
	 * @return the client, or a copy of it with the guard
	 */
	public WebClient guard(WebClient client) {
		WebClient.Builder copy = client.mutate();
		boolean[] guarded = new boolean[1];
		copy.filters((filters) -> guarded[0] = isGuarded(filters));
		return guarded[0] ? client : copy.filters(this::addGuard).build();
	}

	private void addGuard(List<ExchangeFilterFunction> filters) {
		if (!isGuarded(filters)) {
			filters.add(0, this.filters.get());
		}
	}

	private static boolean isGuarded(List<ExchangeFilterFunction> filters) {
		return filters.stream().anyMatch(GuardingExchangeFilter.class::isInstance);
	}

}
