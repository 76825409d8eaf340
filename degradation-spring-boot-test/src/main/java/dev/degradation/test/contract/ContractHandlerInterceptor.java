package dev.degradation.test.contract;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Stops each request of the contract tests at the door of the handler that Spring MVC chose for
 * it, and names that handler in the answer. A request is marked by the
 * {@value #REQUEST_HEADER} header; every other request goes on untouched.
 *
 * <p>So the contract proves that a request reached the application, and which handler, without
 * running the handler: a contract request changes no data (a {@code DELETE} deletes nothing),
 * needs no dependency (CI cannot reach them), and gets the same answer whatever the data.
 * Registered last among the application's interceptors by
 * {@link dev.degradation.test.AutoConfigureDegradation @AutoConfigureDegradation}, so that the
 * request has passed every filter and interceptor of the application when it is stopped.
 */
public class ContractHandlerInterceptor implements HandlerInterceptor {

	/** The request header that marks a request of the contract tests. */
	public static final String REQUEST_HEADER = "X-Degradation-Contract";

	/** The response header that names the handler a marked request reached. */
	public static final String HANDLER_HEADER = "X-Degradation-Contract-Handler";

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (request.getHeader(REQUEST_HEADER) == null) {
			return true;
		}
		response.setStatus(HttpServletResponse.SC_OK);
		response.setHeader(HANDLER_HEADER, URLEncoder.encode(describe(handler), StandardCharsets.UTF_8));
		return false;
	}

	/**
	 * Return the name of a handler, as the contract compares it: the class and method, with the
	 * types of its parameters, of a handler method.
	 * @param handler a handler of Spring MVC
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
	 * Return the handler named in an answer.
	 * @param header the value of the {@value #HANDLER_HEADER} header, or {@code null}
	 * @return the handler's name, or {@code null} when the answer names none
	 */
	static @Nullable String handlerOf(@Nullable String header) {
		return (header != null) ? URLDecoder.decode(header, StandardCharsets.UTF_8) : null;
	}

}
