package dev.degradation.handler;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.web.server.ServerWebExchange;

import dev.degradation.web.HandlerRoute;

/**
 * Handlers of a reactive application that WebFlux's own mappings do not describe, such as the
 * routes of a Spring Cloud Gateway, added to those {@link WebFluxHandlerRoutes} reads wherever the
 * starter reads an application's handlers ({@link ManifestVerification}, the endpoint's
 * {@code handled} flag, the generated contract tests). A bean of this type is picked up; a library
 * that serves requests through a handler mapping of its own contributes one.
 */
public interface WebFluxHandlerContributor {

	/**
	 * Return the handlers, as the manifest check reads them: each with the methods and path
	 * patterns of the requests it may serve, never fewer (a handler taken for narrower than it
	 * is would make a route look like a typo).
	 * @return the handlers
	 */
	List<HandlerRoute> handlers();

	/**
	 * Return the name of the handler that a handler mapping chose for an exchange, as the
	 * {@link HandlerRoute#handler() handler} of one of {@link #handlers()} names it, when it is one
	 * of this contributor's.
	 * @param exchange the exchange, after a handler mapping chose its handler
	 * @param handler the handler the mapping chose
	 * @return the handler's name, or {@code null} when it is not one of this contributor's
	 */
	@Nullable String handlerName(ServerWebExchange exchange, Object handler);

}
