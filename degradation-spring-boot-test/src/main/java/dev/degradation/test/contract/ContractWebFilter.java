package dev.degradation.test.contract;

import java.util.List;
import java.util.Optional;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.handler.WebFluxHandlerContributor;

/**
 * Stops each request of the contract tests at the door of the handler that WebFlux chose for it,
 * and names that handler in the answer, as {@link ContractHandlerInterceptor} does on Spring MVC.
 * A request is marked by the {@value ContractHandlers#REQUEST_HEADER} header; every other request
 * goes on untouched, and so does a marked request that no handler takes (the dispatcher then
 * answers it as it would).
 *
 * <p>WebFlux has no interceptor between the dispatcher and the handler: this is the last web filter
 * of the application, so that a marked request has passed every filter (the degradation filter
 * among them) when it is stopped, and it asks the application's handler mappings in the
 * dispatcher's order, as the dispatcher would, without blocking.
 */
public class ContractWebFilter implements WebFilter, Ordered {

	private final ObjectProvider<HandlerMapping> mappings;

	private final List<WebFluxHandlerContributor> contributors;

	/**
	 * Create a filter.
	 * @param mappings the application's handler mappings
	 */
	public ContractWebFilter(ObjectProvider<HandlerMapping> mappings) {
		this(mappings, List.of());
	}

	/**
	 * Create a filter that names the handlers of contributors (a gateway's routes) as they do.
	 * @param mappings the application's handler mappings
	 * @param contributors the handlers that WebFlux's own mappings do not describe
	 */
	public ContractWebFilter(ObjectProvider<HandlerMapping> mappings, List<WebFluxHandlerContributor> contributors) {
		this.mappings = mappings;
		this.contributors = List.copyOf(contributors);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!exchange.getRequest().getHeaders().containsHeader(ContractHandlers.REQUEST_HEADER)) {
			return chain.filter(exchange);
		}
		return Flux.fromStream(this.mappings.orderedStream())
			.concatMap((mapping) -> mapping.getHandler(exchange))
			.next()
			.map(Optional::of)
			// A mapping's refusal (405, 415) is the dispatcher's to answer.
			.onErrorResume((ex) -> Mono.empty())
			.defaultIfEmpty(Optional.empty())
			// Not switchIfEmpty after the stop: a stopped answer completes empty too, and the
			// handler must never run.
			.flatMap((handler) -> handler.isPresent() ? stop(exchange, handler.get()) : chain.filter(exchange));
	}

	private Mono<Void> stop(ServerWebExchange exchange, Object handler) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatus.OK);
		String name = WebFluxHandlerLookup.contributedName(this.contributors, exchange, handler);
		response.getHeaders()
			.set(ContractHandlers.HANDLER_HEADER,
					(name != null) ? ContractHandlers.headerNaming(name) : ContractHandlers.header(handler));
		return response.setComplete();
	}

}
