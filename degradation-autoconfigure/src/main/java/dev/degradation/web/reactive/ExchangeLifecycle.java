package dev.degradation.web.reactive;

import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.overload.Admission.Admitted;
import dev.degradation.web.Answer;
import dev.degradation.web.CheapAnswerTurns;
import dev.degradation.web.Decision;
import dev.degradation.web.ReplacedAnswer;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RequestLifecycle;
import dev.degradation.web.StaleAnswers;

/**
 * An exchange's {@link RequestLifecycle}: its steps as Reactor publishers, none of which blocks
 * the thread that runs it (an event loop). A wait for a place or a turn is a timer; the exchange
 * goes on on a Reactor scheduler, never on the thread that freed the place nor on the one the
 * wait ran out on. An admitted exchange ends when its answer is written, fails, or is cancelled (a client
 * that left).
 */
final class ExchangeLifecycle extends RequestLifecycle<Mono<Void>, RuntimeException> {

	private ServerWebExchange exchange;

	private final WebFilterChain chain;

	private final String sessionCookieName;

	private @Nullable ExchangeView view;

	ExchangeLifecycle(RequestDecider decider, boolean levelOnEveryAnswer, ServerWebExchange exchange,
			WebFilterChain chain, String sessionCookieName) {
		super(decider, levelOnEveryAnswer);
		this.exchange = exchange;
		this.chain = chain;
		this.sessionCookieName = sessionCookieName;
	}

	@Override
	protected ExchangeView view() {
		ExchangeView view = this.view;
		if (view == null) {
			view = new ExchangeView(this.exchange.getRequest());
			this.view = view;
		}
		return view;
	}

	@Override
	protected long contentLength() {
		return this.exchange.getRequest().getHeaders().getContentLength();
	}

	@Override
	protected @Nullable String contentType() {
		return this.exchange.getRequest().getHeaders().getFirst(HttpHeaders.CONTENT_TYPE);
	}

	@Override
	protected Mono<Void> readBodyFirst(long timeoutNanos, Step<Boolean, Mono<Void>, RuntimeException> then) {
		return ArrivedBody.read(this.exchange.getRequest(), timeoutNanos)
			.map(Optional::of)
			.onErrorResume(TimeoutException.class, (ex) -> Mono.just(Optional.empty()))
			.flatMap((Optional<ServerHttpRequest> arrived) -> {
				if (arrived.isPresent()) {
					this.exchange = this.exchange.mutate().request(arrived.get()).build();
					this.view = null;
				}
				return then.then(arrived.isPresent());
			});
	}

	@Override
	protected Mono<Void> await(Decision.Wait wait, Step<@Nullable Admitted, Mono<Void>, RuntimeException> then) {
		// Either the time or a freed place wins, never both (a place handed over as the time ran out
		// is given back). A client that leaves cancels the future, which counts the request as
		// refused; a place it had just been handed is given back (HandedOver).
		return HandedOver.on(wait.awaitWithoutThread(), Schedulers.parallel(), Admitted::onIgnore)
			.map(Optional::of)
			.defaultIfEmpty(Optional.empty())
			.flatMap((Optional<Admitted> admitted) -> then.then(admitted.orElse(null)));
	}

	@Override
	protected Mono<Void> takeTurn(CheapAnswerTurns turns, Step<Boolean, Mono<Void>, RuntimeException> then) {
		CompletableFuture<Boolean> turn = turns.enterLater();
		if (turn.isDone()) {
			return then.then(turn.join());
		}
		// A turn handed to an exchange whose client left as it came is given back.
		return HandedOver.on(turn, Schedulers.parallel(), (taken) -> {
			if (taken) {
				turns.leave(System.nanoTime());
			}
		}).flatMap(then::then);
	}

	@Override
	protected Mono<Void> sendInTurn(Action<Mono<Void>, RuntimeException> answer, Runnable giveBack) {
		return Mono.defer(answer::run).doFinally((signal) -> giveBack.run());
	}

	/**
	 * Look the exchange's principal up in its security context, without blocking, for a route
	 * that keeps copies; an exchange of no security has none at once.
	 */
	@Override
	protected Mono<Void> principalKnown(Action<Mono<Void>, RuntimeException> then, Runnable abandoned) {
		AtomicBoolean wentOn = new AtomicBoolean();
		return this.exchange.<Principal>getPrincipal()
			.map(Optional::of)
			.defaultIfEmpty(Optional.empty())
			.flatMap((Optional<Principal> principal) -> {
				wentOn.set(true);
				view().principal(principal.orElse(null));
				return then.run();
			})
			.doFinally((SignalType signal) -> {
				if (!wentOn.get() && signal != SignalType.ON_COMPLETE) {
					abandoned.run();
				}
			});
	}

	@Override
	protected void header(String name, String value) {
		this.exchange.getResponse().getHeaders().set(name, value);
	}

	@Override
	protected Mono<Void> pass(@Nullable Admitted admitted, long bodyTimeLimitNanos,
			StaleAnswers.@Nullable RouteCopies copies, @Nullable String copyKey) {
		ServerWebExchange received = this.exchange;
		ServerWebExchange exchange = (admitted != null && TimeLimitedBody.mayHaveBody(received.getRequest()))
				? TimeLimitedBody.bound(received, admitted, bodyTimeLimitNanos) : received;
		TimeLimitedAnswer answer = null;
		if (admitted != null) {
			answer = new TimeLimitedAnswer(exchange.getResponse(), admitted, answerWaitLimitNanos());
			exchange = exchange.mutate().response(answer).build();
		}
		this.exchange = exchange;
		ServerHttpResponse response = exchange.getResponse();
		Mono<Void> passed;
		if (copies != null && copyKey != null) {
			CopyingResponse copying = new CopyingResponse(response, copies.maxAnswerBytes());
			passed = this.chain.filter(exchange.mutate().response(copying).build())
				.doOnSuccess((Void done) -> copying.offer(copies, copyKey));
		}
		else {
			passed = this.chain.filter(exchange);
		}
		Mono<Void> served = passed.onErrorResume((Throwable failure) -> fallBack(failure, Mono::error));
		Map<Object, Object> forCalls = callContext();
		if (!forCalls.isEmpty()) {
			// What the guarded WebClient calls made for the request follow.
			served = served.contextWrite(Context.of(forCalls));
		}
		if (admitted == null) {
			return served;
		}
		TimeLimitedAnswer timed = answer;
		// The request ends as its answer completes, before the server hears of it: a servlet
		// container may recycle the response the moment it does (Jetty at once), and a status
		// read after that is lost; and the server may finish the exchange, and its caller send
		// its next request, before anything after the completion runs.
		AtomicBoolean over = new AtomicBoolean();
		return served.doOnSuccess((Void done) -> {
			if (over.compareAndSet(false, true)) {
				int status = statusOf(response);
				answerDone(timed);
				ended(status < 0, status);
			}
		}).doFinally((SignalType signal) -> {
			if (over.compareAndSet(false, true)) {
				answerDone(timed);
				ended(true, statusOf(response));
			}
		});
	}

	private static void answerDone(@Nullable TimeLimitedAnswer timed) {
		if (timed != null) {
			timed.finished();
		}
	}

	/**
	 * Return the status of an exchange's answer as it completed, or {@code -1} when the server
	 * no longer knows it: a servlet container recycles the response of a request it ended itself
	 * (a time-out, a caller that left) while the application's answer may still complete later,
	 * and the place must be given back all the same.
	 */
	private static int statusOf(ServerHttpResponse response) {
		try {
			HttpStatusCode status = response.getStatusCode();
			return (status != null) ? status.value() : 200;
		}
		catch (IllegalStateException ex) {
			return -1;
		}
	}

	@Override
	protected boolean answerStarted() {
		return this.exchange.getResponse().isCommitted();
	}

	@Override
	protected void observeFailure(Throwable failure) {
		ServerRequestObservationContext.findCurrent(this.exchange.getAttributes())
			.ifPresent((context) -> context.setError(failure));
	}

	/**
	 * Clear what a failed handler set of its answer, keeping what {@link ReplacedAnswer} keeps.
	 * The server's session cookie is written as the answer commits, after this.
	 */
	@Override
	protected void replaceAnswer() {
		ServerHttpResponse response = this.exchange.getResponse();
		HttpHeaders headers = response.getHeaders();
		List<Map.Entry<String, String>> kept = ReplacedAnswer.keptHeaders(List.copyOf(headers.headerNames()),
				headers::getOrEmpty, this.sessionCookieName);
		headers.clear();
		kept.forEach((header) -> headers.add(header.getKey(), header.getValue()));
		response.getCookies()
			.keySet()
			.removeIf((cookie) -> !ReplacedAnswer.keepsCookie(cookie, this.sessionCookieName));
	}

	@Override
	protected @Nullable String handledPattern() {
		Object pattern = this.exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
		if (pattern != null) {
			return pattern.toString();
		}
		return (this.exchange.getAttribute(RequestDecider.HANDLED_ROUTE_ATTRIBUTE) instanceof String route) ? route
				: null;
	}

	@Override
	protected void answering(String cause, @Nullable String pathPattern) {
		this.exchange.getAttributes().put(RequestDecider.SHED_CAUSE_ATTRIBUTE, cause);
		if (pathPattern != null) {
			ServerRequestObservationContext.findCurrent(this.exchange.getAttributes())
				.ifPresent((context) -> context.setPathPattern(pathPattern));
		}
	}

	@Override
	protected Mono<Void> write(Answer answer) {
		return write(this.exchange.getResponse(), answer);
	}

	@Override
	protected Mono<Void> lettingBodyGo(Mono<Void> written) {
		// Reactor Netty lets a body nobody read go itself.
		return ReactorNetty.serves(this.exchange.getRequest()) ? written
				: written.then(UnreadBody.letGo(this.exchange.getRequest()));
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

}
