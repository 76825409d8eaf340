package dev.degradation.web.reactive;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Schedulers;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.engine.RequestSimulation;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.RequestPriority;
import dev.degradation.web.Answer;
import dev.degradation.web.Decision;
import dev.degradation.web.DegradationHeaders;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.ReplacedAnswer;
import dev.degradation.web.StaleAnswers;

/**
 * The reactive stack's adapter of the request decision ({@link RequestDecider}), for WebFlux
 * applications and Spring Cloud Gateway: answers an exchange with its route's fallback when the
 * route is shed, refuses it under load, and lets every other exchange through, with the same
 * headers, causes and counts as the servlet filter.
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
		// A healthy service's exchange is let through without reading it; it is read only when
		// the decision needs it, or when its handler fails.
		Decision decision = this.decider.withoutLookup();
		if (decision != null) {
			return carryOut(exchange, chain, null, decision);
		}
		ServerHttpRequest request = exchange.getRequest();
		ExchangeView received = new ExchangeView(request);
		if (this.decider.readsBodyFirst(received, request.getHeaders().getContentLength(),
				request.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE))) {
			// A body that arrives slowly holds no place in admission: it is read before.
			return ArrivedBody.read(request, this.decider.bodyTimeoutNanos(received))
				.map(Optional::of)
				.onErrorResume(TimeoutException.class, (ex) -> Mono.just(Optional.empty()))
				.flatMap((Optional<ServerHttpRequest> arrived) -> arrived.isPresent()
						? decided(exchange.mutate().request(arrived.get()).build(), chain,
								new ExchangeView(arrived.get()))
						: write(exchange.getResponse(), this.decider.bodyTooSlow()));
		}
		return decided(exchange, chain, received);
	}

	private Mono<Void> decided(ServerWebExchange exchange, WebFilterChain chain, ExchangeView view) {
		Decision decision = this.decider.decide(view);
		if (decision instanceof Decision.Wait wait) {
			// The wait is a timer: the future completes empty when the time is up, and either the
			// time or a freed place wins, never both (a place handed over as the time ran out is
			// given back). The exchange goes on on a Reactor scheduler, never on the thread that
			// freed the place nor on the JDK's timer thread. A client that leaves cancels the
			// future, which counts the request as refused; a place it had just been handed is
			// discarded and given back.
			return Mono.fromFuture(wait.awaitWithoutThread())
				.publishOn(Schedulers.parallel())
				.doOnDiscard(Admitted.class, Admitted::onIgnore)
				.map((Admitted admitted) -> this.decider.afterWait(wait, admitted))
				.switchIfEmpty(Mono.fromSupplier(() -> this.decider.afterWait(wait, null)))
				.flatMap((Decision waited) -> carryOut(exchange, chain, view, waited));
		}
		return carryOut(exchange, chain, view, decision);
	}

	private Mono<Void> carryOut(ServerWebExchange exchange, WebFilterChain chain, @Nullable ExchangeView view,
			Decision decision) {
		if (decision instanceof Decision.Proceed proceed) {
			return proceed(exchange, chain, view, proceed);
		}
		return answer(exchange, (view != null) ? view : new ExchangeView(exchange.getRequest()),
				(Decision.Answered) decision);
	}

	/**
	 * Let an exchange through to the application, keeping a copy of the answer of a live GET of a
	 * {@code stale} route; an admitted exchange tells the limit how it ended when it ends.
	 */
	private Mono<Void> proceed(ServerWebExchange received, WebFilterChain chain, @Nullable ExchangeView view,
			Decision.Proceed proceed) {
		Admitted admitted = proceed.admitted();
		ServerWebExchange exchange = (admitted != null && TimeLimitedBody.mayHaveBody(received.getRequest()))
				? received.mutate()
			.request(new TimeLimitedBody(received.getRequest(), admitted, this.decider.bodyTimeLimitNanos(proceed)))
			.build() : received;
		ServerHttpResponse response = exchange.getResponse();
		if (this.levelOnEveryAnswer) {
			response.getHeaders().set(DegradationHeaders.LEVEL, proceed.state().levelHeader());
		}
		Mono<Void> passed;
		StaleAnswers.RouteCopies copies = proceed.copies(exchange.getRequest().getMethod().name());
		if (copies != null) {
			passed = passKeepingCopy(exchange, chain, (view != null) ? view : new ExchangeView(exchange.getRequest()),
					copies);
		}
		else {
			passed = chain.filter(exchange);
		}
		Mono<Void> served = passed.onErrorResume((Throwable failure) -> fallBackFromRefusedCall(exchange,
				(view != null) ? view : new ExchangeView(exchange.getRequest()), proceed, failure));
		if (proceed.passesPriority()) {
			// The priority the request is served at, for the guarded WebClient calls made for it.
			served = served.contextWrite((context) -> context.put(RequestPriority.KEY, proceed.priority()));
		}
		RequestSimulation simulation = proceed.simulation();
		if (simulation != null) {
			// The simulation the request asked for itself, for the guarded calls made for it.
			served = served.contextWrite((context) -> context.put(RequestSimulation.KEY, simulation));
		}
		if (proceed.admitted() == null) {
			return served;
		}
		return served.doFinally((SignalType signal) -> {
			HttpStatusCode status = response.getStatusCode();
			this.decider.end(proceed, signal != SignalType.ON_COMPLETE, (status != null) ? status.value() : 200,
					exchange.getAttribute(RequestDecider.SHED_CAUSE_ATTRIBUTE) != null);
		});
	}

	/**
	 * Answer with the route's fallback if the handler failed because a guarded call to a
	 * dependency the route requires got no answer, and nothing was sent yet; otherwise let the
	 * failure go on.
	 */
	private Mono<Void> fallBackFromRefusedCall(ServerWebExchange exchange, ExchangeView view,
			Decision.Proceed proceed, Throwable failure) {
		ServerHttpResponse response = exchange.getResponse();
		Decision.Shed fallback = response.isCommitted() ? null : this.decider.afterFailure(proceed, view, failure);
		if (fallback == null) {
			return Mono.error(failure);
		}
		ServerRequestObservationContext.findCurrent(exchange.getAttributes())
			.ifPresent((context) -> context.setError(failure));
		replaceAnswer(response, this.sessionCookieName);
		return answer(exchange, view, fallback);
	}

	/**
	 * Remove what a failed handler set of its answer, keeping what {@link ReplacedAnswer} keeps.
	 * The server's session cookie is written as the answer commits, after this.
	 */
	private static void replaceAnswer(ServerHttpResponse response, String sessionCookieName) {
		HttpHeaders headers = response.getHeaders();
		for (String name : List.copyOf(headers.headerNames())) {
			if (!ReplacedAnswer.keepsHeader(name)) {
				headers.remove(name);
			}
			else if (name.equalsIgnoreCase(HttpHeaders.SET_COOKIE)) {
				List<String> kept = headers.getOrEmpty(name)
					.stream()
					.filter((value) -> ReplacedAnswer.keepsSetCookie(value, sessionCookieName))
					.toList();
				if (kept.isEmpty()) {
					headers.remove(name);
				}
				else {
					headers.put(name, kept);
				}
			}
		}
		response.getCookies().keySet().removeIf((cookie) -> !ReplacedAnswer.keepsCookie(cookie, sessionCookieName));
	}

	private Mono<Void> answer(ServerWebExchange exchange, ExchangeView view, Decision.Answered answered) {
		exchange.getAttributes().put(RequestDecider.SHED_CAUSE_ATTRIBUTE, answered.cause());
		String pattern = answered.pathPattern();
		if (pattern != null) {
			// The standard HTTP metrics name a shed request by its manifest pattern, as they name a
			// request that a handler served by its mapping, instead of UNKNOWN.
			ServerRequestObservationContext.findCurrent(exchange.getAttributes())
				.ifPresent((context) -> context.setPathPattern(pattern));
		}
		return write(exchange.getResponse(), answered.answer(view));
	}

	/**
	 * Write an answer the starter prepared.
	 * @param response the response, not yet committed
	 * @param answer the answer
	 * @return the completion of the write
	 */
	static Mono<Void> write(ServerHttpResponse response, Answer answer) {
		response.setStatusCode(HttpStatusCode.valueOf(answer.status()));
		HttpHeaders headers = response.getHeaders();
		String[] pairs = answer.headers();
		for (int i = 0; i < pairs.length; i += 2) {
			headers.set(pairs[i], pairs[i + 1]);
		}
		byte[] body = answer.body();
		if (answer.hasContentLength()) {
			headers.setContentLength(body.length);
		}
		if (body.length == 0) {
			return response.setComplete();
		}
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
	}

	private Mono<Void> passKeepingCopy(ServerWebExchange exchange, WebFilterChain chain, ExchangeView view,
			StaleAnswers.RouteCopies copies) {
		String key = copies.key(view);
		if (key == null) {
			// Credentials or cookies the route does not vary by: this answer is one user's.
			return chain.filter(exchange);
		}
		CopyingResponse copying = new CopyingResponse(exchange.getResponse(), copies.maxAnswerBytes());
		return chain.filter(exchange.mutate().response(copying).build())
			.doOnSuccess((Void done) -> copying.offer(copies, key));
	}

}
