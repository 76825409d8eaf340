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
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;

/**
 * Answers a request with its route's fallback when the route is shed (by the level, or on its own
 * because a dependency it requires failed), and lets every other request through with the
 * {@code X-Degradation-Level} header.
 *
 * <p>While nothing is shed the filter reads one volatile field and sets one header: it does not
 * even parse the path, unless the manifest has a {@code stale} route. Then the live requests are
 * looked up too, and only the answer of a {@code GET} request of a {@code stale} route is copied
 * as it is written ({@link StaleAnswers}); every other route's request passes as before. When something is shed it resolves the path exactly as Spring MVC does
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

	/**
	 * The request attribute that holds the cause of a shed request's fallback (a {@code String},
	 * as in {@link DegradationHeaders#REASON}), for observations and logs that run after the
	 * filter answered.
	 */
	public static final String SHED_CAUSE_ATTRIBUTE = DegradationFilter.class.getName() + ".SHED_CAUSE";

	private final DegradationEngine engine;

	private final RouteTable routes;

	private final @Nullable PathPattern reserved;

	private final boolean levelOnEveryAnswer;

	/**
	 * Create a filter that sends {@code X-Degradation-Level} on every answer.
	 * @param engine the engine whose state decides what is shed
	 * @param routes the compiled routes of the engine's manifest
	 * @param reservedBasePath a base path that is never shed (the Actuator's), or {@code null}
	 */
	public DegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath) {
		this(engine, routes, reservedBasePath, true);
	}

	/**
	 * Create a filter.
	 * @param engine the engine whose state decides what is shed
	 * @param routes the compiled routes of the engine's manifest
	 * @param reservedBasePath a base path that is never shed (the Actuator's), or {@code null}
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too (a public service may not want to show its state)
	 */
	public DegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath,
			boolean levelOnEveryAnswer) {
		this.engine = engine;
		this.routes = routes;
		this.reserved = (reservedBasePath != null && !reservedBasePath.isEmpty() && !reservedBasePath.equals("/"))
				? PathPatternParser.defaultInstance.parse(reservedBasePath + "/**") : null;
		this.levelOnEveryAnswer = levelOnEveryAnswer;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		DegradationState state = this.engine.state();
		HttpServletRequest httpRequest = (HttpServletRequest) request;
		HttpServletResponse httpResponse = (HttpServletResponse) response;
		ShedRoute route = null;
		if (state.shedsAnything()) {
			route = route(httpRequest);
			String cause = (route != null) ? state.shedCause(route.index()) : null;
			if (cause != null) {
				shed(httpRequest, httpResponse, route, state, cause);
				return;
			}
		}
		else if (this.routes.keepsCopies()) {
			// Only a manifest with a 'stale' route looks up live requests, to keep their answers.
			route = route(httpRequest);
		}
		if (this.levelOnEveryAnswer) {
			httpResponse.setHeader(DegradationHeaders.LEVEL, state.levelHeader());
		}
		if (route != null && route.writer() instanceof FallbackWriter.Stale stale
				&& httpRequest.getMethod().equals("GET")) {
			passKeepingCopy(httpRequest, httpResponse, chain, stale.copies());
			return;
		}
		chain.doFilter(request, response);
	}

	private void passKeepingCopy(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			StaleAnswers.RouteCopies copies) throws IOException, ServletException {
		String key = copies.key(request);
		if (key == null) {
			// Credentials or cookies the route does not vary by: this answer is one user's.
			chain.doFilter(request, response);
			return;
		}
		CopyingResponse copying = new CopyingResponse(response, copies, key);
		chain.doFilter(request, copying);
		copying.storeIfShareable(request);
	}

	private void shed(HttpServletRequest request, HttpServletResponse response, ShedRoute route,
			DegradationState state, String cause) throws IOException {
		// The standard HTTP metrics name a shed request by its manifest pattern, as they name a
		// request that a handler served by its mapping, instead of UNKNOWN.
		request.setAttribute(SHED_CAUSE_ATTRIBUTE, cause);
		ServerHttpObservationFilter.findObservationContext(request)
			.ifPresent((context) -> context.setPathPattern(route.route().path()));
		route.writer().write(request, response, state, cause);
		this.engine.fallbackCounts().record(route.index(), state.shedKind(route.index()));
	}

	private @Nullable ShedRoute route(HttpServletRequest request) {
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
			if (route == null) {
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
