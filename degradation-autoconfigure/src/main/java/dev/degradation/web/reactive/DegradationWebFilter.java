package dev.degradation.web.reactive;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.web.ReplacedAnswer;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RequestLifecycle;

/**
 * The reactive stack's adapter of the request decision ({@link RequestDecider}), for WebFlux
 * applications and Spring Cloud Gateway: each exchange is carried through its
 * {@link RequestLifecycle} (in {@link ExchangeLifecycle}, which translates its steps into Reactor
 * publishers). It answers an exchange with its route's fallback when the route is shed, refuses it
 * under load, and lets every other exchange through, with the same headers, causes and counts as
 * the servlet filter.
 *
 * <p>Nothing here blocks the thread that runs it (an event loop): the decision is taken at once,
 * and a core request that may wait for a place waits on a timer, not on a parked thread. An
 * admitted exchange holds its place until its answer is written, fails, or is cancelled (a
 * client that left). An exchange let through is answered with its route's fallback too when its
 * handler fails because a guarded call to a dependency the route requires got no answer, as long
 * as nothing of the answer was sent. The live {@code GET} answers of {@code stale} routes are
 * copied as they are written.
 *
 * <p>It must run after Spring Security's {@code WebFilterChainProxy} (order -100), so that an
 * unauthenticated request is refused before it could see a fallback.
 */
public class DegradationWebFilter implements WebFilter, Ordered {

	/**
	 * The default order: right after Spring Security's web filter chain (order -100), before
	 * anything that would do work for a request that is about to be shed.
	 */
	public static final int DEFAULT_ORDER = RequestDecider.DEFAULT_ORDER;

	/** The name of WebFlux's session cookie unless configured ({@code CookieWebSessionIdResolver}). */
	private static final String DEFAULT_SESSION_COOKIE = "SESSION";

	private final RequestDecider decider;

	private final boolean levelOnEveryAnswer;

	private final int order;

	private volatile String sessionCookieName = DEFAULT_SESSION_COOKIE;

	/**
	 * Create a filter.
	 * @param decider the request decision
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too
	 * @param order the filter's order, after Spring Security's
	 */
	public DegradationWebFilter(RequestDecider decider, boolean levelOnEveryAnswer, int order) {
		this.decider = decider;
		this.levelOnEveryAnswer = levelOnEveryAnswer;
		this.order = order;
	}

	@Override
	public int getOrder() {
		return this.order;
	}

	/**
	 * Name the server's session cookie, which a fallback that replaces a failed handler's answer
	 * keeps ({@link ReplacedAnswer}); {@code SESSION} unless set.
	 * @param sessionCookieName the name
	 */
	public void setSessionCookieName(String sessionCookieName) {
		this.sessionCookieName = sessionCookieName;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		return new ExchangeLifecycle(this.decider, this.levelOnEveryAnswer, exchange, chain, this.sessionCookieName)
			.run();
	}

}
