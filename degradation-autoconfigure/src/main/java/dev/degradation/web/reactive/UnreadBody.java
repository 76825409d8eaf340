package dev.degradation.web.reactive;

import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;

import dev.degradation.web.RequestLifecycle;

/**
 * A request's body that nobody will use, read and let go within the bounds the starter keeps
 * ({@link RequestLifecycle#UNREAD_BODY_BYTES}, {@link RequestLifecycle#UNREAD_BODY_TIME}) after
 * a cheap answer or a refused write to the endpoint: a connection closed on a body not read is
 * reset, and the reset discards the answer before a caller still sending its body reads it.
 * Nothing here holds a thread; the servlet stack's counterpart is
 * {@code dev.degradation.web.servlet.UnreadBody}.
 */
public final class UnreadBody {

	private UnreadBody() {
	}

	/**
	 * Read what arrives of a request's body and let it go, until its end, the byte bound or the
	 * time bound; a request that declares no body completes at once (on a server other than
	 * Reactor Netty, one of no declared length may have one: an HTTP/2 body), and a failure to read
	 * (the caller left) completes too.
	 * @param request the request
	 * @return the completion of the reading, which never fails
	 */
	public static Mono<Void> letGo(ServerHttpRequest request) {
		if (!TimeLimitedBody.mayHaveBody(request)) {
			return Mono.empty();
		}
		return Mono.defer(() -> {
			AtomicLong left = new AtomicLong(RequestLifecycle.UNREAD_BODY_BYTES);
			return request.getBody()
				.takeUntil((DataBuffer buffer) -> left.addAndGet(-buffer.readableByteCount()) <= 0)
				.map(DataBufferUtils::release)
				.then()
				.timeout(RequestLifecycle.UNREAD_BODY_TIME, Mono.empty())
				.onErrorResume((Throwable failure) -> Mono.empty());
		});
	}

}
