package dev.degradation.test.contract;

import java.util.ArrayList;
import java.util.List;


import org.springframework.context.ApplicationContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.degradation.handler.MvcHandlerRoutes;
import dev.degradation.web.HandlerRoute;

/**
 * Asks the application's own request mappings and router functions which handler Spring MVC
 * would send a request to, as the dispatcher servlet asks them (annotated handlers first, as
 * Boot orders the mappings): conditions on methods, parameters, headers and content types
 * included, without sending anything.
 */
final class MvcHandlerLookup implements HandlerLookup {

	private final List<RequestMappingHandlerMapping> mappings;

	private final List<RouterFunctionMapping> functionMappings;

	private final MockServletContext servletContext = new MockServletContext();

	MvcHandlerLookup(List<RequestMappingHandlerMapping> mappings, List<RouterFunctionMapping> functionMappings) {
		this.mappings = List.copyOf(mappings);
		this.functionMappings = List.copyOf(functionMappings);
	}

	/**
	 * Return the lookup of the Spring MVC application whose context a test runs in.
	 * @param context the test's application context
	 * @return the lookup
	 */
	static MvcHandlerLookup of(ApplicationContext context) {
		return new MvcHandlerLookup(context.getBeanProvider(RequestMappingHandlerMapping.class).orderedStream().toList(),
				context.getBeanProvider(RouterFunctionMapping.class).orderedStream().toList());
	}

	@Override
	public List<HandlerRoute> handlers() {
		List<HandlerRoute> handlers = new ArrayList<>(MvcHandlerRoutes.requestMappings(this.mappings.stream()));
		handlers.addAll(MvcHandlerRoutes.functionalRoutes(this.functionMappings.stream()));
		return handlers;
	}

	@Override
	public Found find(ContractRequest request) {
		List<String> refusals = new ArrayList<>();
		List<HandlerMapping> all = new ArrayList<>(this.mappings);
		all.addAll(this.functionMappings);
		for (HandlerMapping mapping : all) {
			MockHttpServletRequest servletRequest = MockMvcContractClient.builder(request)
				.buildRequest(this.servletContext);
			ServletRequestPathUtils.parseAndCache(servletRequest);
			try {
				HandlerExecutionChain chain = mapping.getHandler(servletRequest);
				if (chain != null) {
					Object pattern = servletRequest.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
					return new Found(ContractHandlers.describe(chain.getHandler()), (pattern != null) ? pattern.toString() : null,
							List.of());
				}
			}
			catch (Exception ex) {
				// What MVC answers instead: 405, 415, 400 for a missing parameter, and so on.
				refusals.add(String.valueOf(ex.getMessage()));
			}
		}
		return new Found(null, null, refusals.isEmpty() ? List.of("no handler") : refusals);
	}

}
