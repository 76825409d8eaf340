package dev.degradation.web.reactive;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

/**
 * An exchange's request whose body was read whole before it was decided, so that a body that
 * arrives slowly holds no place in admission ({@link #read}); the application reads the bytes
 * that arrived. Nothing blocks: the body is gathered as it arrives, and the time-out is Reactor's
 * timer.
 */
final class ArrivedBody extends ServerHttpRequestDecorator {

	private final byte[] body;

	private ArrivedBody(ServerHttpRequest request, byte[] body) {
		super(request);
		this.body = body;
	}

	/**
	 * Read a request's body, at most the given time from the subscription.
	 * @param request the request
	 * @param timeoutNanos how long the body may take to arrive
	 * @return the request with its body read, or a {@link java.util.concurrent.TimeoutException}
	 * when it did not arrive in time (what arrived of it is given up)
	 */
	static Mono<ServerHttpRequest> read(ServerHttpRequest request, long timeoutNanos) {
		return DataBufferUtils.join(request.getBody())
			.map((DataBuffer joined) -> {
				byte[] bytes = new byte[joined.readableByteCount()];
				joined.read(bytes);
				DataBufferUtils.release(joined);
				return (ServerHttpRequest) new ArrivedBody(request, bytes);
			})
			.switchIfEmpty(Mono.fromSupplier(() -> new ArrivedBody(request, new byte[0])))
			.timeout(Duration.ofNanos(timeoutNanos));
	}

	@Override
	public Flux<DataBuffer> getBody() {
		return Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(this.body)));
	}

}
