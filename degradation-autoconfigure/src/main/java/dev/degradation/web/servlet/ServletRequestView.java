package dev.degradation.web.servlet;

import java.security.Principal;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.degradation.web.RequestView;

/**
 * A servlet request as the decision reads it; its path is resolved exactly as Spring MVC
 * does ({@link ServletRequestPathUtils}), only when asked for, and released after.
 */
final class ServletRequestView implements RequestView {

	final HttpServletRequest request;

	private @Nullable PathContainer path;

	private boolean parsedHere;

	ServletRequestView(HttpServletRequest request) {
		this.request = request;
	}

	@Override
	public @Nullable String callerAddress() {
		return this.request.getRemoteAddr();
	}

	@Override
	public int localPort() {
		return this.request.getLocalPort();
	}

	@Override
	public String method() {
		return this.request.getMethod();
	}

	@Override
	public PathContainer pathWithinApplication() {
		PathContainer path = this.path;
		if (path == null) {
			RequestPath requestPath;
			if (ServletRequestPathUtils.hasParsedRequestPath(this.request)) {
				requestPath = ServletRequestPathUtils.getParsedRequestPath(this.request);
			}
			else {
				requestPath = ServletRequestPathUtils.parseAndCache(this.request);
				this.parsedHere = true;
			}
			path = requestPath.pathWithinApplication();
			this.path = path;
		}
		return path;
	}

	/** Clear the parsed path this view cached on the request, as if it was never parsed. */
	void release() {
		if (this.parsedHere) {
			ServletRequestPathUtils.clearParsedRequestPath(this.request);
			this.parsedHere = false;
		}
	}

	@Override
	public String rawPath() {
		return this.request.getRequestURI();
	}

	@Override
	public @Nullable String rawQuery() {
		return this.request.getQueryString();
	}

	@Override
	public @Nullable String header(String name) {
		return this.request.getHeader(name);
	}

	/**
	 * Return the request's principal as the request reports it: behind Spring Security's filter
	 * chain, its request's, which is {@code null} for the anonymous user; where the request does not
	 * report one, the principal of Spring Security's context, so that an application that turned
	 * Spring Security's servlet API integration off is still known by its callers.
	 */
	@Override
	public @Nullable Principal principal() {
		Principal principal = this.request.getUserPrincipal();
		return (principal != null) ? principal : SecurityContextPrincipal.current();
	}

}

