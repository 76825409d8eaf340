package dev.degradation.test.contract;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Stops each request of the contract tests at the door of the handler that Spring MVC chose for
 * it, and names that handler in the answer ({@link ContractWebFilter} does so on WebFlux). A
 * request is marked by the {@value #REQUEST_HEADER} header; every other request goes on
 * untouched.
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
	public static final String REQUEST_HEADER = ContractHandlers.REQUEST_HEADER;

	/** The response header that names the handler a marked request reached. */
	public static final String HANDLER_HEADER = ContractHandlers.HANDLER_HEADER;

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (request.getHeader(REQUEST_HEADER) == null) {
			return true;
		}
		response.setStatus(HttpServletResponse.SC_OK);
		response.setHeader(HANDLER_HEADER, ContractHandlers.header(handler));
		return false;
	}

}
