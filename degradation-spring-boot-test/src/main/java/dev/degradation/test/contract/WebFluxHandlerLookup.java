package dev.degradation.test.contract;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.degradation.handler.WebFluxHandlerContributor;
import dev.degradation.handler.WebFluxHandlerRoutes;
import dev.degradation.web.HandlerRoute;

/**
 * Asks a WebFlux application's own request mappings and router functions which handler its
 * dispatcher would send a request to, as the dispatcher asks them (annotated handlers first):
 * conditions on methods, parameters, headers and content types included, without sending
 * anything. Where a library serves requests through a handler
 * mapping of its own and describes its handlers ({@link WebFluxHandlerContributor}: a Spring
 * Cloud Gateway's routes), its mapping is asked too, after the request mappings, and its handlers
 * are named as it names them. The lookup waits for the mapping's answer on the test's thread,
 * never on a server's.
 */
final class WebFluxHandlerLookup implements HandlerLookup {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final List<RequestMappingHandlerMapping> mappings;

	private final List<RouterFunctionMapping> functionMappings;

	private final List<HandlerMapping> otherMappings;

	private final List<WebFluxHandlerContributor> contributors;

	WebFluxHandlerLookup(List<RequestMappingHandlerMapping> mappings) {
		this(mappings, List.of(), List.of(), List.of());
	}

	WebFluxHandlerLookup(List<RequestMappingHandlerMapping> mappings, List<RouterFunctionMapping> functionMappings,
			List<HandlerMapping> otherMappings, List<WebFluxHandlerContributor> contributors) {
		this.mappings = List.copyOf(mappings);
		this.functionMappings = List.copyOf(functionMappings);
		this.otherMappings = List.copyOf(otherMappings);
		this.contributors = List.copyOf(contributors);
	}

	/**
	 * Return the lookup of the WebFlux application whose context a test runs in.
	 * @param context the test's application context
	 * @return the lookup
	 */
	static WebFluxHandlerLookup of(ApplicationContext context) {
		List<WebFluxHandlerContributor> contributors = context.getBeanProvider(WebFluxHandlerContributor.class)
			.orderedStream()
			.toList();
		List<HandlerMapping> others = contributors.isEmpty() ? List.of()
				: context.getBeanProvider(HandlerMapping.class)
					.orderedStream()
					.filter((mapping) -> !(mapping instanceof RequestMappingHandlerMapping)
							&& !(mapping instanceof RouterFunctionMapping))
					.toList();
		return new WebFluxHandlerLookup(
				context.getBeanProvider(RequestMappingHandlerMapping.class).orderedStream().toList(),
				context.getBeanProvider(RouterFunctionMapping.class).orderedStream().toList(), others, contributors);
	}

	/**
	 * Whether the application whose context a test runs in is served by WebFlux.
	 * @param context the test's application context
	 * @return whether it has WebFlux's request mappings
	 */
	static boolean serves(ApplicationContext context) {
		return context.getBeanNamesForType(RequestMappingHandlerMapping.class).length > 0;
	}

	/**
	 * Return the name that a contributor gives the handler a mapping chose for an exchange.
	 * @param contributors the contributors
	 * @param exchange the exchange
	 * @param handler the handler
	 * @return the name, or {@code null} when the handler is none of theirs
	 */
	static @Nullable String contributedName(List<WebFluxHandlerContributor> contributors, ServerWebExchange exchange,
			Object handler) {
		for (WebFluxHandlerContributor contributor : contributors) {
			String name = contributor.handlerName(exchange, handler);
			if (name != null) {
				return name;
			}
		}
		return null;
	}

	@Override
	public List<HandlerRoute> handlers() {
		List<HandlerRoute> handlers = new ArrayList<>(WebFluxHandlerRoutes.requestMappings(this.mappings.stream()));
		handlers.addAll(WebFluxHandlerRoutes.functionalRoutes(this.functionMappings.stream()));
		this.contributors.forEach((contributor) -> handlers.addAll(contributor.handlers()));
		return handlers;
	}

	@Override
	public Found find(ContractRequest request) {
		List<String> refusals = new ArrayList<>();
		List<HandlerMapping> own = new ArrayList<>(this.mappings);
		own.addAll(this.functionMappings);
		for (HandlerMapping mapping : own) {
			MockServerWebExchange exchange = exchange(request);
			try {
				Object handler = mapping.getHandler(exchange).block(TIMEOUT);
				if (handler != null) {
					Object pattern = exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
					return new Found(ContractHandlers.describe(handler), (pattern != null) ? pattern.toString() : null,
							List.of());
				}
			}
			catch (RuntimeException ex) {
				// What WebFlux answers instead: 405, 415, 400 for a missing parameter, and so on.
				refusals.add(String.valueOf(ex.getMessage()));
			}
		}
		for (HandlerMapping mapping : this.otherMappings) {
			MockServerWebExchange exchange = exchange(request);
			try {
				Object handler = mapping.getHandler(exchange).block(TIMEOUT);
				String name = (handler != null) ? contributedName(this.contributors, exchange, handler) : null;
				if (name != null) {
					return new Found(name, contributedPattern(name, request), List.of());
				}
			}
			catch (RuntimeException ex) {
				refusals.add(String.valueOf(ex.getMessage()));
			}
		}
		return new Found(null, null, refusals.isEmpty() ? List.of("no handler") : refusals);
	}

	/**
	 * The first pattern of a contributed handler that takes the request: contributed mappings
	 * do not say which of a handler's patterns matched.
	 */
	private @Nullable String contributedPattern(String name, ContractRequest request) {
		PathContainer path = PathContainer.parsePath(request.path());
		for (WebFluxHandlerContributor contributor : this.contributors) {
			for (HandlerRoute handler : contributor.handlers()) {
				if (handler.handler().equals(name)
						&& (handler.methods().isEmpty() || handler.methods().contains(request.method()))
						&& PathPatternParser.defaultInstance.parse(handler.pattern()).matches(path)) {
					return handler.pattern();
				}
			}
		}
		return null;
	}

	private static MockServerWebExchange exchange(ContractRequest request) {
		MockServerHttpRequest.BodyBuilder builder = MockServerHttpRequest.method(HttpMethod.valueOf(request.method()),
				URI.create(request.target()));
		request.headers().forEach((name, value) -> builder.header(name, value));
		return MockServerWebExchange.from((request.body() != null) ? builder.body(request.body()) : builder.build());
	}

}
