package dev.degradation.web.reactive;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ResponseStatusException;

import dev.degradation.overload.Admission.Admitted;

/**
 * An admitted exchange whose body must have arrived within a time of its admission, so that a
 * body that trickles in cannot hold its place for longer than its caller waits: past it, the
 * body fails with {@code 408 Request Timeout}. The timer is Reactor's, on its parallel
 * scheduler; nothing blocks.
 */
final class TimeLimitedBody extends ServerHttpRequestDecorator {

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
		// From the subscription to the body's end the request waits for its caller: no part of
		// its latency sample. A codec gathers the body before it decodes, so little of the
		// service's own work falls in between.
		long[] subscribed = new long[1];
		return super.getBody()
			.doOnSubscribe((subscription) -> subscribed[0] = System.nanoTime())
			.doFinally((signal) -> this.admitted.waitedForBody(System.nanoTime() - subscribed[0]))
			.timeout(Mono.defer(this::timeLeft), (buffer) -> Mono.defer(this::timeLeft))
			.onErrorMap(TimeoutException.class, (ex) -> new ResponseStatusException(HttpStatus.REQUEST_TIMEOUT,
					"The request's body did not arrive within " + (this.limitNanos / 1_000_000)
							+ " ms of its admission ('degradation.body.timeout', or its caller's deadline when shorter)"));
	}

	private Mono<Long> timeLeft() {
		return Mono.delay(Duration.ofNanos(Math.max(0, this.limitNanos - this.admitted.elapsedNanos())));
	}

}

