package dev.degradation.client;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

import io.netty.handler.timeout.ReadTimeoutException;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientRequest;
import reactor.util.context.Context;

/**
 * Reactor Netty's per-request timeout for guarded calls made through Spring's
 * {@code ReactorClientHttpRequestFactory}: applied to its {@link HttpClient}, it gives a request
 * made within a guarded attempt the attempt's time limit as the request's own response timeout,
 * the longest wait for any read of the answer, headers and body alike (as Apache HttpClient's
 * response timeout, a dependency that drips its answer can take longer in all). Reactor Netty
 * gives up on its event loop and the caller's thread, blocked on the answer, gets the error, a
 * {@code TimeoutException} when the headers did not come; the guarded call needs no thread of its
 * own. The connection itself is bounded by the client's connect timeout
 * ({@code spring.http.clients.connect-timeout}), Reactor Netty having none per request. Other
 * requests pass untouched.
 *
 * <p>Reactor Netty prepares the request on its event loop, where the attempt's limit is not
 * known; the connection is asked for on the caller's thread, as the request is sent, so that is
 * where the limit is {@linkplain AttemptLimit#claim() claimed} and written into the request's
 * Reactor context, for the request's own hook to read. No timer of Reactor's is started: its
 * schedulers' threads must not wait, and the event loop already times the reads.
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
		return connection.onErrorMap(ReadTimeoutException.class, (timeout) -> asTimeout(timeout, bound))
			.contextWrite(Context.of(LIMIT, bound));
	}

	private static void limited(HttpClientRequest request, Connection connection) {
		request.currentContextView().<Duration>getOrEmpty(LIMIT).ifPresent(request::responseTimeout);
	}

	/** Netty's read time-out as the JDK's, which every guard knows as a time-out. */
	private static Throwable asTimeout(ReadTimeoutException failure, Duration limit) {
		TimeoutException timeout = new TimeoutException("No answer within " + limit.toMillis() + " ms");
		timeout.initCause(failure);
		return timeout;
	}

}
