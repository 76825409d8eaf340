package dev.degradation.web.reactive;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebExchangeDecorator;

import dev.degradation.overload.Admission.Admitted;

/**
 * An admitted exchange whose body must have arrived within a time of its admission, so that a
 * body that trickles in cannot hold its place for longer than its caller waits: past it, the
 * body fails with {@code 408 Request Timeout}. The timer is Reactor's, on its parallel
 * scheduler; nothing blocks.
 *
 * <p>An exchange reads a form or a multipart body ({@link ServerWebExchange#getFormData()},
 * {@link ServerWebExchange#getMultipartData()}) from the request it was created with, not from the
 * request a filter mutated it to, so bounding the request's body alone would leave a form
 * unbounded: {@link #bound} bounds both.
 */
final class TimeLimitedBody extends ServerHttpRequestDecorator {

	private final Admitted admitted;

	private final long limitNanos;

	/**
	 * Whether a request may carry a body worth bounding: it declares a length, or is chunked, or
	 * a server that does not frame bodies as Reactor Netty does received it with neither. An
	 * exchange without one is let through as it came, with nothing allocated for it. Over HTTP/2 a
	 * body is DATA frames, whose headers need declare no length and carry no transfer coding;
	 * Reactor Netty's codec marks such a request chunked when its headers leave the stream open,
	 * so there the headers tell, whatever the protocol. A servlet container (WebFlux's servlet
	 * adapter) marks nothing, and WebFlux does not say which protocol the request came over, so
	 * there every request that declares no length is bounded: a wrapper, and nothing read.
	 */
	static boolean mayHaveBody(ServerHttpRequest request) {
		HttpHeaders headers = request.getHeaders();
		long length = headers.getContentLength();
		return length > 0 || headers.containsHeader(HttpHeaders.TRANSFER_ENCODING)
				|| (length < 0 && !ReactorNetty.serves(request));
	}

	TimeLimitedBody(ServerHttpRequest request, Admitted admitted, long limitNanos) {
		super(request);
		this.admitted = admitted;
		this.limitNanos = limitNanos;
	}

	/**
	 * Return an admitted exchange whose body, form and multipart data alike, must have arrived
	 * within a time of its admission.
	 * @param exchange the exchange
	 * @param admitted its place in admission
	 * @param limitNanos how long after its admission its body may still be arriving
	 * @return the exchange with its body bounded
	 */
	static ServerWebExchange bound(ServerWebExchange exchange, Admitted admitted, long limitNanos) {
		TimeLimitedBody body = new TimeLimitedBody(exchange.getRequest(), admitted, limitNanos);
		return new TimeLimitedForms(exchange.mutate().request(body).build(), body);
	}

	@Override
	public Flux<DataBuffer> getBody() {
		// From the subscription to the body's end the request waits for its caller: no part of
		// its latency sample. A codec gathers the body before it decodes, so little of the
		// service's own work falls in between.
		long[] subscribed = new long[1];
		return super.getBody()
			.doOnSubscribe((subscription) -> subscribed[0] = System.nanoTime())
			.doFinally((signal) -> this.admitted.waitedForBody(System.nanoTime() - subscribed[0]))
			.timeout(Mono.defer(this::timeLeft), (buffer) -> Mono.defer(this::timeLeft))
			.onErrorMap(TimeoutException.class, (ex) -> tooSlow());
	}

	/**
	 * Bound what the exchange reads of the body itself (its form or multipart data) as the body.
	 */
	private <T> Mono<T> arrived(Mono<T> read) {
		long[] subscribed = new long[1];
		return read.doOnSubscribe((subscription) -> subscribed[0] = System.nanoTime())
			.doFinally((signal) -> this.admitted.waitedForBody(System.nanoTime() - subscribed[0]))
			.timeout(Mono.defer(this::timeLeft))
			.onErrorMap(TimeoutException.class, (ex) -> tooSlow());
	}

	private ResponseStatusException tooSlow() {
		return new ResponseStatusException(HttpStatus.REQUEST_TIMEOUT,
				"The request's body did not arrive within " + (this.limitNanos / 1_000_000)
						+ " ms of its admission ('degradation.body.timeout', or its caller's deadline when shorter)");
	}

	private Mono<Long> timeLeft() {
		return Mono.delay(Duration.ofNanos(Math.max(0, this.limitNanos - this.admitted.elapsedNanos())));
	}

	/**
	 * An exchange whose form and multipart data, which it reads from the request it was created
	 * with, arrive within the same bound as its body.
	 */
	private static final class TimeLimitedForms extends ServerWebExchangeDecorator {

		private final TimeLimitedBody body;

		TimeLimitedForms(ServerWebExchange exchange, TimeLimitedBody body) {
			super(exchange);
			this.body = body;
		}

		@Override
		public Mono<MultiValueMap<String, String>> getFormData() {
			return this.body.arrived(super.getFormData());
		}

		@Override
		public Mono<MultiValueMap<String, Part>> getMultipartData() {
			return this.body.arrived(super.getMultipartData());
		}

	}

}
