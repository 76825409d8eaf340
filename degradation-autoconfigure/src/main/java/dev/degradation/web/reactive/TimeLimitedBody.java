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

