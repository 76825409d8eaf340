package dev.degradation.actuate;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Sends a browser that asks for the status page with a trailing slash
 * ({@code /actuator/degradation/ui/}) to the page ({@code ../ui}) on Spring MVC: the Actuator
 * matches no operation for it, and the page's relative links only resolve from its own address.
 * The redirect is relative, so that it holds behind a proxy prefix.
 */
public class StatusPageSlashFilter extends OncePerRequestFilter {

	private final String slashPath;

	/**
	 * Create a filter.
	 * @param endpointPath the endpoint's path within the application, such as
	 * {@code /actuator/degradation}
	 */
	public StatusPageSlashFilter(String endpointPath) {
		this.slashPath = DegradationStatusPage.slashPath(endpointPath);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String method = request.getMethod();
		String path = request.getRequestURI().substring(request.getContextPath().length());
		if (this.slashPath.equals(path) && ("GET".equals(method) || "HEAD".equals(method))) {
			response.setStatus(HttpServletResponse.SC_FOUND);
			response.setHeader(HttpHeaders.LOCATION, DegradationStatusPage.FROM_SLASH);
			return;
		}
		chain.doFilter(request, response);
	}

}
