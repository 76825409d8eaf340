package dev.degradation.test.contract;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Asks the application's own request mappings which handler Spring MVC would send a request to,
 * as the dispatcher servlet asks them: conditions on methods, parameters, headers and content
 * types included, without sending anything.
 */
final class HandlerLookup {

	private final List<RequestMappingHandlerMapping> mappings;

	private final MockServletContext servletContext = new MockServletContext();

	HandlerLookup(List<RequestMappingHandlerMapping> mappings) {
		this.mappings = List.copyOf(mappings);
	}

	/**
	 * Find the handler of a request.
	 * @param request the request
	 * @return what was found
	 */
	Found find(ContractRequest request) {
		List<String> refusals = new ArrayList<>();
		for (RequestMappingHandlerMapping mapping : this.mappings) {
			MockHttpServletRequest servletRequest = MockMvcContractClient.builder(request)
				.buildRequest(this.servletContext);
			ServletRequestPathUtils.parseAndCache(servletRequest);
			try {
				HandlerExecutionChain chain = mapping.getHandler(servletRequest);
				if (chain != null && chain.getHandler() instanceof HandlerMethod method) {
					Object pattern = servletRequest.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
					return new Found(method, (pattern != null) ? pattern.toString() : null, List.of());
				}
			}
			catch (Exception ex) {
				// What MVC answers instead: 405, 415, 400 for a missing parameter, and so on.
				refusals.add(String.valueOf(ex.getMessage()));
			}
		}
		return new Found(null, null, refusals.isEmpty() ? List.of("no handler") : refusals);
	}

	/**
	 * The outcome of a lookup.
	 *
	 * @param handler the handler method, or {@code null} when MVC would send the request to none
	 * @param pattern the handler's pattern that matched
	 * @param refusals why the mappings refused the request, when no handler was found
	 */
	record Found(@Nullable HandlerMethod handler, @Nullable String pattern, List<String> refusals) {

		/**
		 * Return the handler's name as the contract's interceptor gives it.
		 * @return the name
		 * @throws IllegalStateException if no handler was found
		 */
		String handlerName() {
			if (this.handler == null) {
				throw new IllegalStateException("No handler");
			}
			return ContractHandlerInterceptor.describe(this.handler);
		}

	}

}
