package dev.degradation.test.contract;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.web.method.HandlerMethod;

/**
 * How a request of the contract tests is marked, and how the handler it reached is named in the
 * answer, the same on both web stacks: {@link ContractHandlerInterceptor} on Spring MVC and
 * {@link ContractWebFilter} on WebFlux stop a marked request at its handler's door and name the
 * handler as the {@linkplain HandlerLookup lookups} name the handler they expect.
 */
final class ContractHandlers {

	/** The request header that marks a request of the contract tests. */
	static final String REQUEST_HEADER = "X-Degradation-Contract";

	/** The response header that names the handler a marked request reached. */
	static final String HANDLER_HEADER = "X-Degradation-Contract-Handler";

	private ContractHandlers() {
	}

	/**
	 * Return the name of a handler, as the contract compares it: the class and method, with the
	 * types of its parameters, of a handler method; the class of any other handler.
	 * @param handler a handler of Spring MVC or WebFlux
	 * @return its name
	 */
	static String describe(Object handler) {
		if (handler instanceof HandlerMethod method) {
			return method.getBeanType().getSimpleName() + "#" + method.getMethod().getName() + "("
					+ Arrays.stream(method.getMethod().getParameterTypes())
						.map(Class::getSimpleName)
						.collect(Collectors.joining(", "))
					+ ")";
		}
		return handler.getClass().getSimpleName();
	}

	/**
	 * Return the value of the {@value #HANDLER_HEADER} header that names a handler.
	 * @param handler the handler
	 * @return the header's value
	 */
	static String header(Object handler) {
		return headerNaming(describe(handler));
	}

	/**
	 * Return the value of the {@value #HANDLER_HEADER} header that gives a handler's name.
	 * @param name the handler's name
	 * @return the header's value
	 */
	static String headerNaming(String name) {
		return URLEncoder.encode(name, StandardCharsets.UTF_8);
	}

	/**
	 * Return the handler named in an answer.
	 * @param header the value of the {@value #HANDLER_HEADER} header, or {@code null}
	 * @return the handler's name, or {@code null} when the answer names none
	 */
	static @Nullable String handlerOf(@Nullable String header) {
		return (header != null) ? URLDecoder.decode(header, StandardCharsets.UTF_8) : null;
	}

}
