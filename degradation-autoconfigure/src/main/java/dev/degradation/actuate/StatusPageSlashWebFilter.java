package dev.degradation.actuate;

import java.net.URI;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Sends a browser that asks for the status page with a trailing slash
 * ({@code /actuator/degradation/ui/}) to the page ({@code ../ui}) on WebFlux, as
 * {@link StatusPageSlashFilter} does on Spring MVC.
 */
public class StatusPageSlashWebFilter implements WebFilter, Ordered {

	private static final URI FROM_SLASH = URI.create(DegradationStatusPage.FROM_SLASH);

	private final String slashPath;

	private final int order;

	/**
	 * Create a filter.
	 * @param endpointPath the endpoint's path within the application, such as
	 * {@code /actuator/degradation}
	 * @param order the filter's order, after Spring Security's
	 */
	public StatusPageSlashWebFilter(String endpointPath, int order) {
		this.slashPath = DegradationStatusPage.slashPath(endpointPath);
		this.order = order;
	}

	@Override
	public int getOrder() {
		return this.order;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		HttpMethod method = request.getMethod();
		if ((HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method))
				&& this.slashPath.equals(request.getPath().pathWithinApplication().value())) {
			exchange.getResponse().setStatusCode(HttpStatus.FOUND);
			exchange.getResponse().getHeaders().setLocation(FROM_SLASH);
			exchange.getResponse().getHeaders().setContentLength(0);
			return exchange.getResponse().setComplete();
		}
		return chain.filter(exchange);
	}

}
