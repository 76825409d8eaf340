package dev.degradation.web.reactive;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

import dev.degradation.web.AnswerCopy;
import dev.degradation.web.StaleAnswers;

/**
 * A response that keeps a bounded copy ({@link AnswerCopy}) of the body it writes, for a
 * {@code stale} route.
 */
final class CopyingResponse extends ServerHttpResponseDecorator {

	private final AnswerCopy copy;

	CopyingResponse(ServerHttpResponse delegate, int limit) {
		super(delegate);
		this.copy = new AnswerCopy(limit);
	}

	@Override
	public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
		return super.writeWith(Flux.from(body).doOnNext(this::keep));
	}

	@Override
	public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		// A streamed answer is not an answer to keep.
		this.copy.abandon();
		return super.writeAndFlushWith(body);
	}

	private void keep(DataBuffer buffer) {
		try (DataBuffer.ByteBufferIterator buffers = buffer.readableByteBuffers()) {
			while (buffers.hasNext()) {
				this.copy.append(buffers.next());
			}
		}
	}

	void offer(StaleAnswers.RouteCopies copies, String key) {
		HttpStatusCode status = getStatusCode();
		copies.offer(key, (status != null) ? status.value() : 200, (name) -> getHeaders().getOrEmpty(name),
				this.copy.body());
	}

}

