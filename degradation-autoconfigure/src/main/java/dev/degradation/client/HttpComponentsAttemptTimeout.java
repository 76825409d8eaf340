package dev.degradation.client;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * Apache HttpClient's per-request timeout for guarded calls: the first handler of the classic
 * client's execution chain gives a request made within a guarded attempt the attempt's time
 * limit as its response timeout (every wait for bytes of the answer, body included), its
 * connect timeout and its wait for a pooled connection, each unless already shorter. HttpClient
 * then gives up on the caller's thread, so the guarded call needs no thread of its own. Other
 * requests pass untouched.
 */
public class HttpComponentsAttemptTimeout implements ExecChainHandler {

	/** The name the handler is added to the execution chain under. */
	public static final String NAME = "degradation-attempt-timeout";

	@Override
	public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
			throws IOException, HttpException {
		Duration limit = AttemptLimit.claim();
		if (limit != null) {
			scope.clientContext.setRequestConfig(limited(scope.clientContext.getRequestConfigOrDefault(), limit));
		}
		return chain.proceed(request, scope);
	}

	@SuppressWarnings("deprecation") // The request's connect timeout still overrides the pool's.
	static RequestConfig limited(RequestConfig config, Duration limit) {
		Timeout timeout = Timeout.of(Math.max(1, limit.toMillis()), TimeUnit.MILLISECONDS);
		return RequestConfig.copy(config)
			.setResponseTimeout(shorter(config.getResponseTimeout(), timeout))
			.setConnectTimeout(shorter(config.getConnectTimeout(), timeout))
			.setConnectionRequestTimeout(shorter(config.getConnectionRequestTimeout(), timeout))
			.build();
	}

	/** The shorter of two timeouts, where none or zero means infinite. */
	private static Timeout shorter(@Nullable Timeout configured, Timeout limit) {
		return (configured != null && !configured.isDisabled() && configured.compareTo(limit) < 0) ? configured
				: limit;
	}

}
