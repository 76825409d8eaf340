package dev.degradation.web;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;

/**
 * Answers a request with its route's fallback when the route's tier is shed, and lets every other
 * request through with the {@code X-Degradation-Level} header.
 *
 * <p>While nothing is shed the filter reads one volatile field and sets one header: it does not
 * even parse the path. When something is shed it resolves the path exactly as Spring MVC does
 * ({@link ServletRequestPathUtils}), so that the filter and the controllers cannot disagree about
 * which route a request is. It must be registered after Spring Security, for the {@code REQUEST}
 * dispatcher type only, so that an unauthenticated request is refused before it could see a
 * fallback.
 */
public class DegradationFilter implements Filter {

	/**
	 * The default order: right after Spring Security's filter chain (order -100), before anything
	 * that would do work for a request that is about to be shed.
	 */
	public static final int DEFAULT_ORDER = -100 + 10;

	private final DegradationEngine engine;

	private final RouteTable routes;

	private final @Nullable PathPattern reserved;

	/**
	 * Create a filter.
	 * @param engine the engine whose state decides what is shed
	 * @param routes the compiled routes of the engine's manifest
	 * @param reservedBasePath a base path that is never shed (the Actuator's), or {@code null}
	 */
	public DegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath) {
		this.engine = engine;
		this.routes = routes;
		this.reserved = (reservedBasePath != null && !reservedBasePath.isEmpty() && !reservedBasePath.equals("/"))
				? PathPatternParser.defaultInstance.parse(reservedBasePath + "/**") : null;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		DegradationState state = this.engine.state();
		HttpServletResponse httpResponse = (HttpServletResponse) response;
		if (state.level() > 0) {
			ShedRoute route = shedRoute((HttpServletRequest) request, state);
			if (route != null) {
				route.writer().write(httpResponse, state);
				this.engine.fallbackCounts().record(route.index());
				return;
			}
		}
		httpResponse.setHeader(DegradationHeaders.LEVEL, state.levelHeader());
		chain.doFilter(request, response);
	}

	private @Nullable ShedRoute shedRoute(HttpServletRequest request, DegradationState state) {
		RouteIndex routes = this.routes.index(request.getMethod());
		if (routes == null) {
			// No route has this method: spare the request the parsing of its path.
			return null;
		}
		boolean alreadyParsed = ServletRequestPathUtils.hasParsedRequestPath(request);
		RequestPath requestPath = alreadyParsed ? ServletRequestPathUtils.getParsedRequestPath(request)
				: ServletRequestPathUtils.parseAndCache(request);
		try {
			PathContainer path = requestPath.pathWithinApplication();
			ShedRoute route = routes.find(path);
			if (route == null || !state.sheds(route.priority())) {
				return null;
			}
			return (this.reserved != null && this.reserved.matches(path)) ? null : route;
		}
		finally {
			if (!alreadyParsed) {
				ServletRequestPathUtils.clearParsedRequestPath(request);
			}
		}
	}

}
