package dev.degradation.test.contract;

import java.util.List;

import org.jspecify.annotations.Nullable;


import dev.degradation.web.HandlerRoute;

/**
 * The application's handlers as the contract reads them, and which of them a request would reach,
 * asked of the application's own request mappings without sending anything: one implementation
 * per web stack ({@link MvcHandlerLookup}, {@link WebFluxHandlerLookup}).
 */
interface HandlerLookup {

	/**
	 * Return the application's handlers, annotated and functional, as the manifest check reads them.
	 * @return the handlers
	 */
	List<HandlerRoute> handlers();

	/**
	 * Find the handler of a request.
	 * @param request the request
	 * @return what was found
	 */
	Found find(ContractRequest request);

	/**
	 * The outcome of a lookup.
	 *
	 * @param handler the handler (an annotated handler method or a functional route's handler
	 * function), or {@code null} when the stack would send the request to
	 * none
	 * @param pattern the handler's pattern that matched
	 * @param refusals why the mappings refused the request, when no handler was found
	 */
	record Found(@Nullable Object handler, @Nullable String pattern, List<String> refusals) {

		/**
		 * Return the handler's name as the contract's interceptor or web filter gives it.
		 * @return the name
		 * @throws IllegalStateException if no handler was found
		 */
		String handlerName() {
			if (this.handler == null) {
				throw new IllegalStateException("No handler");
			}
			return ContractHandlers.describe(this.handler);
		}

	}

}
