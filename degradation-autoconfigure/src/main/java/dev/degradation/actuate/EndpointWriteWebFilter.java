package dev.degradation.actuate;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.web.RequestLifecycle;
import dev.degradation.web.reactive.UnreadBody;

/**
 * Checks a write to the {@code degradation} endpoint on WebFlux before the Actuator reads it, by
 * the same rules as on Spring MVC ({@link EndpointWriteCheck}): a body key that contradicts the
 * URL, an unknown key, a value of the wrong type and malformed JSON are refused with a message
 * that names them, a write to a read-only endpoint answers {@code 405} with the property that
 * grants writes, and a write without a {@code Content-Type} is read as JSON.
 *
 * <p>The body is read without blocking, at most {@value EndpointWriteCheck#MAX_BODY_BYTES} bytes
 * of it kept (the rest of a larger one, and the body of a write refused before it was read, is read
 * and let go within a bound, so that the refusal reaches its caller), and a write that passes goes
 * on with that body replayed. It runs after Spring Security's {@code WebFilterChainProxy} (order -100), so that an
 * unauthenticated write is refused by Spring Security first and says nothing of the endpoint.
 */
public class EndpointWriteWebFilter implements WebFilter, Ordered {

	private final EndpointWriteCheck check;

	private final BooleanSupplier writable;

	private final int order;

	/**
	 * Create a filter.
	 * @param endpointPath the endpoint's path within the application, such as
	 * {@code /actuator/degradation}
	 * @param writable whether the endpoint takes writes over the web now
	 * @param order the filter's order, after Spring Security's
	 */
	public EndpointWriteWebFilter(String endpointPath, BooleanSupplier writable, int order) {
		this.check = new EndpointWriteCheck(endpointPath);
		this.writable = writable;
		this.order = order;
	}

	@Override
	public int getOrder() {
		return this.order;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		String method = request.getMethod().name();
		String target = this.check.target(request.getPath().pathWithinApplication());
		if (target == null || !this.check.checks(method, target)) {
			return chain.filter(exchange);
		}
		// A write's connection is not kept alive: on Reactor Netty 1.3.6 and 1.3.7, a keep-alive
		// connection whose request body this filter read and replaced stalled now and then on a
		// later request (the suite on both stacks saw 1 run in 2 time out); operators' writes are
		// rare, and a new connection for the next one costs nothing that matters.
		exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
		ServerRequestObservationContext.findCurrent(exchange.getAttributes()).ifPresent((context) -> {
			if (context.getPathPattern() == null) {
				context.setPathPattern(this.check.pattern(target));
			}
		});
		EndpointWriteCheck.Refusal refusal = this.check.beforeBody(method, target, request.getURI().getRawQuery(),
				this.writable.getAsBoolean(), request.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE),
				request.getHeaders().getContentLength());
		if (refusal != null) {
			Mono<Void> discard = UnreadBody.letGo(request);
			if (request.getHeaders().getContentLength() > RequestLifecycle.UNREAD_BODY_BYTES) {
				// Announced larger than is ever read: answered at once, and what arrives of the
				// body meanwhile is let go within bounds; the connection may be reset under a
				// caller still sending.
				return refuse(exchange.getResponse(), refusal).then(discard);
			}
			// Reactor Netty closes a connection whose answer was sent with Connection: close at
			// once, on a body still arriving, and the reset discards the answer before its caller
			// reads it: a body within bounds is read and let go first (at most its bound in time).
			return discard.then(refuse(exchange.getResponse(), refusal));
		}
		if (!"POST".equals(method)) {
			return chain.filter(exchange);
		}
		return read(request).map((byte[] body) -> new Read(body, this.check.body(target, body)))
			.flatMap((Read read) -> (read.refusal() != null) ? refuse(exchange.getResponse(), read.refusal())
					: chain.filter(exchange.mutate().request(new CheckedWrite(request, read.body())).build()));
	}

	/**
	 * Read a write's body: its first {@value EndpointWriteCheck#MAX_BODY_BYTES} bytes and one
	 * more are kept, and the rest of a larger one is read and let go, up to
	 * {@link RequestLifecycle#UNREAD_BODY_BYTES} in all. A connection closed on a body
	 * not read is reset, and the reset discards the answer before its caller reads it (Tomcat
	 * swallows the rest of a refused body for the same reason).
	 */
	private static Mono<byte[]> read(ServerHttpRequest request) {
		ByteArrayOutputStream kept = new ByteArrayOutputStream();
		AtomicLong seen = new AtomicLong();
		return request.getBody().map((DataBuffer buffer) -> {
			try {
				int readable = buffer.readableByteCount();
				int room = EndpointWriteCheck.MAX_BODY_BYTES + 1 - kept.size();
				if (room > 0) {
					byte[] bytes = new byte[Math.min(room, readable)];
					buffer.read(bytes);
					kept.writeBytes(bytes);
				}
				return readable;
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		})
			.takeWhile((Integer readable) -> seen.addAndGet(readable) <= RequestLifecycle.UNREAD_BODY_BYTES)
			.then(Mono.fromSupplier(kept::toByteArray));
	}

	private static Mono<Void> refuse(ServerHttpResponse response, EndpointWriteCheck.Refusal refusal) {
		response.setStatusCode(HttpStatusCode.valueOf(refusal.status()));
		HttpHeaders headers = response.getHeaders();
		if (refusal.readOnly()) {
			headers.set(HttpHeaders.ALLOW, "GET");
		}
		headers.setContentType(MediaType.APPLICATION_JSON);
		byte[] body = refusal.body();
		headers.setContentLength(body.length);
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
	}

	/**
	 * A body as read, and what is wrong with it.
	 */
	private record Read(byte[] body, EndpointWriteCheck.@Nullable Refusal refusal) {
	}

	/**
	 * The request as checked: its body read once and replayed, read as JSON when it had no
	 * {@code Content-Type}.
	 */
	private static final class CheckedWrite extends ServerHttpRequestDecorator {

		private final byte[] body;

		private final HttpHeaders headers;

		CheckedWrite(ServerHttpRequest request, byte[] body) {
			super(request);
			this.body = body;
			HttpHeaders headers = HttpHeaders.copyOf(request.getHeaders());
			if (headers.getContentType() == null) {
				headers.setContentType(MediaType.APPLICATION_JSON);
			}
			headers.remove(HttpHeaders.TRANSFER_ENCODING);
			headers.setContentLength(body.length);
			this.headers = HttpHeaders.readOnlyHttpHeaders(headers);
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public Flux<DataBuffer> getBody() {
			// An empty body is no buffer at all: a JSON decoder reads an empty buffer as malformed
			// JSON, no buffer as no body. Wrapped at each subscription: a buffer is released once read.
			return (this.body.length == 0) ? Flux.empty()
					: Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(this.body)));
		}

	}

}
