package dev.degradation.web.reactive;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Schedulers;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.RequestPriority;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.web.Answer;
import dev.degradation.web.Decision;
import dev.degradation.web.DegradationHeaders;
import dev.degradation.web.FallbackWriter;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RequestView;
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

	private static final Log logger = LogFactory.getLog(DegradationWebFilter.class);

	/**
	 * The default order: right after Spring Security's web filter chain (order -100), before
	 * anything that would do work for a request that is about to be shed.
	 */
	public static final int DEFAULT_ORDER = -100 + 10;

	/**
	 * Headers a failed handler may have set that describe its answer, not the fallback: they are
	 * not kept when the fallback replaces it. Lower case; names starting with {@code content-} and
	 * {@code x-degrad} too.
	 */
	private static final Set<String> ANSWER_HEADERS = Set.of("etag", "last-modified", "location", "retry-after",
			"vary", "cache-control", "expires", "pragma", "age", "link", "refresh", "transfer-encoding", "trailer",
			"set-cookie");

	private final RequestDecider decider;

	private final boolean levelOnEveryAnswer;

	private final int order;

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

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		// A healthy service's exchange is let through without reading it; it is read only when
		// the decision needs it, or when its handler fails.
		Decision decision = this.decider.withoutLookup();
		if (decision != null) {
			return carryOut(exchange, chain, null, decision);
		}
		ExchangeView view = new ExchangeView(exchange.getRequest());
		decision = this.decider.decide(view);
		if (decision instanceof Decision.Wait wait) {
			// The wait is a timer: the future completes empty when the time is up, and either the
			// time or a freed place wins, never both (a place handed over as the time ran out is
			// given back). The exchange goes on on a Reactor scheduler, never on the thread that
			// freed the place nor on the JDK's timer thread. A client that leaves cancels the
			// future, which counts the request as refused; a place it had just been handed is
			// discarded and given back.
			return Mono
				.fromFuture(wait.overload()
					.admission()
					.awaitWithoutThread()
					.completeOnTimeout(null, Math.max(1, wait.waitNanos()), TimeUnit.NANOSECONDS))
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
		if (decision instanceof Decision.Shed shed) {
			return shed(exchange, (view != null) ? view : new ExchangeView(exchange.getRequest()), shed);
		}
		exchange.getAttributes().put(RequestDecider.SHED_CAUSE_ATTRIBUTE, OverloadSignal.CAUSE);
		return write(exchange.getResponse(), ((Decision.Refuse) decision).answer());
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
		if (proceed.route() != null && proceed.route().writer() instanceof FallbackWriter.Stale stale
				&& exchange.getRequest().getMethod() == HttpMethod.GET) {
			passed = passKeepingCopy(exchange, chain,
					(view != null) ? view : new ExchangeView(exchange.getRequest()), stale.copies());
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
		if (proceed.admitted() == null) {
			return served;
		}
		return served.doFinally((SignalType signal) -> {
			HttpStatusCode status = response.getStatusCode();
			proceed.end(signal != SignalType.ON_COMPLETE, (status != null) ? status.value() : 200,
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
		DependencyUnavailableException refused = DependencyUnavailableException.withoutAnswer(failure);
		ServerHttpResponse response = exchange.getResponse();
		if (refused == null || response.isCommitted()) {
			return Mono.error(failure);
		}
		Decision.Shed fallback = this.decider.afterRefusedCall(proceed, view, refused.dependency());
		if (fallback == null) {
			return Mono.error(failure);
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Answering " + view.method() + " " + view.rawPath() + " with its fallback: "
					+ refused.getMessage());
		}
		ServerRequestObservationContext.findCurrent(exchange.getAttributes())
			.ifPresent((context) -> context.setError(refused));
		clearAnswer(response.getHeaders());
		return shed(exchange, view, fallback);
	}

	/**
	 * Remove what a failed handler set of its answer, keeping the headers of the filters before
	 * it (CORS, tracing), so that the fallback says nothing of work that did not happen.
	 */
	private static void clearAnswer(HttpHeaders headers) {
		for (String name : List.copyOf(headers.headerNames())) {
			String lower = name.toLowerCase(Locale.ROOT);
			if (ANSWER_HEADERS.contains(lower) || lower.startsWith("content-") || lower.startsWith("x-degrad")) {
				headers.remove(name);
			}
		}
	}

	private Mono<Void> shed(ServerWebExchange exchange, ExchangeView view, Decision.Shed shed) {
		// The standard HTTP metrics name a shed request by its manifest pattern, as they name a
		// request that a handler served by its mapping, instead of UNKNOWN.
		exchange.getAttributes().put(RequestDecider.SHED_CAUSE_ATTRIBUTE, shed.cause());
		ServerRequestObservationContext.findCurrent(exchange.getAttributes())
			.ifPresent((context) -> context.setPathPattern(shed.route().route().path()));
		return write(exchange.getResponse(), shed.answer(view));
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

	/**
	 * A response that keeps a bounded copy of the body it writes, for a {@code stale} route.
	 */
	private static final class CopyingResponse extends ServerHttpResponseDecorator {

		private final int limit;

		private @Nullable ByteBuffer copy;

		private boolean overflowed;

		CopyingResponse(ServerHttpResponse delegate, int limit) {
			super(delegate);
			this.limit = limit;
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			return super.writeWith(Flux.from(body).doOnNext(this::keep));
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			// A streamed answer is not an answer to keep.
			this.overflowed = true;
			return super.writeAndFlushWith(body);
		}

		private synchronized void keep(DataBuffer buffer) {
			if (this.overflowed) {
				return;
			}
			int length = buffer.readableByteCount();
			ByteBuffer copy = this.copy;
			int size = (copy != null) ? copy.position() : 0;
			if (size + length > this.limit) {
				// Too large to keep: stop copying and free what was copied.
				this.overflowed = true;
				this.copy = null;
				return;
			}
			if (copy == null || copy.remaining() < length) {
				ByteBuffer larger = ByteBuffer.allocate(Math.min(this.limit, Math.max(256, 2 * (size + length))));
				if (copy != null) {
					copy.flip();
					larger.put(copy);
				}
				copy = larger;
				this.copy = copy;
			}
			buffer.toByteBuffer(buffer.readPosition(), copy, copy.position(), length);
			copy.position(copy.position() + length);
		}

		synchronized void offer(StaleAnswers.RouteCopies copies, String key) {
			HttpStatusCode status = getStatusCode();
			byte[] body = null;
			if (!this.overflowed) {
				ByteBuffer copy = this.copy;
				body = new byte[(copy != null) ? copy.position() : 0];
				if (copy != null) {
					copy.flip();
					copy.get(body);
				}
			}
			copies.offer(key, (status != null) ? status.value() : 200, (name) -> getHeaders().getOrEmpty(name),
					body);
		}

	}

	/**
	 * An exchange's request as the decision reads it, without copying.
	 */
	private static final class ExchangeView implements RequestView {

		private final ServerHttpRequest request;

		ExchangeView(ServerHttpRequest request) {
			this.request = request;
		}

		@Override
		public String method() {
			return this.request.getMethod().name();
		}

		@Override
		public PathContainer pathWithinApplication() {
			return this.request.getPath().pathWithinApplication();
		}

		@Override
		public String rawPath() {
			return this.request.getPath().value();
		}

		@Override
		public @Nullable String rawQuery() {
			return this.request.getURI().getRawQuery();
		}

		@Override
		public @Nullable String header(String name) {
			return this.request.getHeaders().getFirst(name);
		}

	}

	/**
	 * An admitted exchange whose body must have arrived within a time of its admission, so that a
	 * body that trickles in cannot hold its place for longer than its caller waits: past it, the
	 * body fails with {@code 408 Request Timeout}. The timer is Reactor's, on its parallel
	 * scheduler; nothing blocks.
	 */
	private static final class TimeLimitedBody extends ServerHttpRequestDecorator {

		private final Admitted admitted;

		private final long limitNanos;

		/**
		 * Whether a request may carry a body worth bounding: it declares a length, or is chunked.
		 * An exchange without one is let through as it came, with nothing allocated for it.
		 */
		static boolean mayHaveBody(ServerHttpRequest request) {
			HttpHeaders headers = request.getHeaders();
			return headers.getContentLength() > 0 || headers.containsHeader(HttpHeaders.TRANSFER_ENCODING);
		}

		TimeLimitedBody(ServerHttpRequest request, Admitted admitted, long limitNanos) {
			super(request);
			this.admitted = admitted;
			this.limitNanos = limitNanos;
		}

		@Override
		public Flux<DataBuffer> getBody() {
			return super.getBody()
				.timeout(Mono.defer(this::timeLeft), (buffer) -> Mono.defer(this::timeLeft))
				.onErrorMap(TimeoutException.class, (ex) -> new ResponseStatusException(HttpStatus.REQUEST_TIMEOUT,
						"The request's body did not arrive within " + (this.limitNanos / 1_000_000)
								+ " ms of its admission (its caller's deadline, or 'degradation.deadline.max' without one)"));
		}

		private Mono<Long> timeLeft() {
			return Mono.delay(Duration.ofNanos(Math.max(0, this.limitNanos - this.admitted.elapsedNanos())));
		}

	}

}
