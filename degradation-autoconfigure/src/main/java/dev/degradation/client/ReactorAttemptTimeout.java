package dev.degradation.client;

import java.time.Duration;
import java.util.function.UnaryOperator;

import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientRequest;
import reactor.util.context.Context;

/**
 * Reactor Netty's per-request timeout for guarded calls made through Spring's
 * {@code ReactorClientHttpRequestFactory}: applied to its {@link HttpClient}, it gives a request
 * made within a guarded attempt the attempt's time limit as a bound on its connection and the
 * answer's headers, and as the request's own response timeout, the longest wait for any read of
 * the answer, body included. Reactor Netty then gives up on its event loop and the caller's
 * thread, blocked on the answer, gets the error, so the guarded call needs no thread of its own.
 * Other requests pass untouched.
 *
 * <p>Reactor Netty prepares the request on its event loop, where the attempt's limit is not
 * known; the connection is asked for on the caller's thread, as the request is sent, so that is
 * where the limit is {@linkplain AttemptLimit#claim() claimed} and written into the request's
 * Reactor context, for the request's own hook to read.
 */
public final class ReactorAttemptTimeout implements UnaryOperator<HttpClient> {

	private static final String LIMIT = ReactorAttemptTimeout.class.getName() + ".limit";

	@Override
	public HttpClient apply(HttpClient client) {
		return client.mapConnect(ReactorAttemptTimeout::claimed).doOnRequest(ReactorAttemptTimeout::limited);
	}

	private static Mono<? extends Connection> claimed(Mono<? extends Connection> connection) {
		Duration limit = AttemptLimit.claim();
		if (limit == null) {
			return connection;
		}
		Duration bound = (limit.isNegative() || limit.isZero()) ? Duration.ofMillis(1) : limit;
		return connection.timeout(bound).contextWrite(Context.of(LIMIT, bound));
	}

	private static void limited(HttpClientRequest request, Connection connection) {
		request.currentContextView().<Duration>getOrEmpty(LIMIT).ifPresent(request::responseTimeout);
	}

}
