package dev.degradation.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.degradation.web.HandlerRoute;

/**
 * The handlers of a Spring MVC application as the manifest check reads them
 * ({@link ManifestVerification}, the endpoint's {@code handled} flag, the generated contract
 * tests): one for each pattern of each annotated handler method, and one for each path of each
 * functional route. {@link WebFluxHandlerRoutes} reads a WebFlux application alike.
 */
public final class MvcHandlerRoutes {

	private MvcHandlerRoutes() {
	}

	/**
	 * Return the request mappings of Spring MVC's handler mappings: one for each pattern of each
	 * handler method.
	 * @param mappings the handler mappings
	 * @return the request mappings
	 */
	public static List<HandlerRoute> requestMappings(Stream<RequestMappingHandlerMapping> mappings) {
		List<HandlerRoute> handlers = new ArrayList<>();
		mappings.forEach((mapping) -> mapping.getHandlerMethods().forEach((info, method) -> {
			Set<String> methods = info.getMethodsCondition()
				.getMethods()
				.stream()
				.map((httpMethod) -> httpMethod.name().toUpperCase(Locale.ROOT))
				.collect(Collectors.toSet());
			for (String pattern : info.getPatternValues()) {
				handlers.add(new HandlerRoute(methods, pattern, method.getShortLogMessage()));
			}
		}));
		return handlers;
	}

	/**
	 * Return the routes of Spring MVC's functional endpoints: one for each path of each route of
	 * each {@code RouterFunction}.
	 * @param mappings the router function mappings
	 * @return the routes
	 */
	public static List<HandlerRoute> functionalRoutes(Stream<RouterFunctionMapping> mappings) {
		List<HandlerRoute> handlers = new ArrayList<>();
		mappings.forEach((mapping) -> {
			RouterFunction<?> function = mapping.getRouterFunction();
			if (function != null) {
				handlers.addAll(MvcFunctionalRoutes.of(function));
			}
		});
		return handlers;
	}

}
