package dev.degradation.test.contract;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

import dev.degradation.autoconfigure.WebFluxHandlerRoutes;
import dev.degradation.web.HandlerRoute;

/**
 * Asks a WebFlux application's own request mappings and router functions which handler its
 * dispatcher would send a request to, as the dispatcher asks them (annotated handlers first): conditions on methods, parameters, headers and content
 * types included, without sending anything. The lookup waits for the mapping's answer on the
 * test's thread, never on a server's.
 */
final class WebFluxHandlerLookup implements HandlerLookup {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final List<RequestMappingHandlerMapping> mappings;

	private final List<RouterFunctionMapping> functionMappings;

	WebFluxHandlerLookup(List<RequestMappingHandlerMapping> mappings, List<RouterFunctionMapping> functionMappings) {
		this.mappings = List.copyOf(mappings);
		this.functionMappings = List.copyOf(functionMappings);
	}

	/**
	 * Return the lookup of the WebFlux application whose context a test runs in.
	 * @param context the test's application context
	 * @return the lookup
	 */
	static WebFluxHandlerLookup of(ApplicationContext context) {
		return new WebFluxHandlerLookup(
				context.getBeanProvider(RequestMappingHandlerMapping.class).orderedStream().toList(),
				context.getBeanProvider(RouterFunctionMapping.class).orderedStream().toList());
	}

	/**
	 * Whether the application whose context a test runs in is served by WebFlux.
	 * @param context the test's application context
	 * @return whether it has WebFlux's request mappings
	 */
	static boolean serves(ApplicationContext context) {
		return context.getBeanNamesForType(RequestMappingHandlerMapping.class).length > 0;
	}

	@Override
	public List<HandlerRoute> handlers() {
		List<HandlerRoute> handlers = new ArrayList<>(WebFluxHandlerRoutes.requestMappings(this.mappings.stream()));
		handlers.addAll(WebFluxHandlerRoutes.functionalRoutes(this.functionMappings.stream()));
		return handlers;
	}

	@Override
	public Found find(ContractRequest request) {
		List<String> refusals = new ArrayList<>();
		List<HandlerMapping> all = new ArrayList<>(this.mappings);
		all.addAll(this.functionMappings);
		for (HandlerMapping mapping : all) {
			MockServerHttpRequest.BodyBuilder builder = MockServerHttpRequest
				.method(HttpMethod.valueOf(request.method()), URI.create(request.target()));
			request.headers().forEach((name, value) -> builder.header(name, value));
			MockServerWebExchange exchange = MockServerWebExchange
				.from((request.body() != null) ? builder.body(request.body()) : builder.build());
			try {
				Object handler = mapping.getHandler(exchange).block(TIMEOUT);
				if (handler != null) {
					Object pattern = exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
					return new Found(handler, (pattern != null) ? pattern.toString() : null, List.of());
				}
			}
			catch (RuntimeException ex) {
				// What WebFlux answers instead: 405, 415, 400 for a missing parameter, and so on.
				refusals.add(String.valueOf(ex.getMessage()));
			}
		}
		return new Found(null, null, refusals.isEmpty() ? List.of("no handler") : refusals);
	}

}
