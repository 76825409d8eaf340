package dev.degradation.client;

import java.net.URI;
import java.net.URISyntaxException;

import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

/**
 * Apache HttpClient's retry strategy for the request factory of Boot-built clients: a call to a
 * guarded dependency is never retried by HttpClient because of its answer, since its guard
 * retries it within the dependency's budget. HttpClient's default retries a 503 or 429 once
 * after the server's {@code Retry-After}, uncapped: hidden inside one attempt of the guard, that
 * wait made the attempt overrun its time limit whatever the guard's cap. Retries of a request
 * that got no answer (a stale pooled connection) are kept, as are all retries of calls elsewhere.
 */
public class GuardedCallRetryStrategy extends DefaultHttpRequestRetryStrategy {

	private final DependencyGuards guards;

	/**
	 * Create a strategy with HttpClient's default retries for calls that are not guarded.
	 * @param guards the guards whose calls are left to them
	 */
	public GuardedCallRetryStrategy(DependencyGuards guards) {
		super(1, TimeValue.ofSeconds(1));
		this.guards = guards;
	}

	@Override
	public boolean retryRequest(HttpResponse response, int execCount, HttpContext context) {
		@Nullable HttpRequest request = (context instanceof HttpCoreContext core) ? core.getRequest() : null;
		return !isGuarded(request) && super.retryRequest(response, execCount, context);
	}

	private boolean isGuarded(@Nullable HttpRequest request) {
		if (request == null) {
			return false;
		}
		try {
			URI uri = request.getUri();
			return this.guards.forUrl(uri) != null;
		}
		catch (URISyntaxException ex) {
			// A request HttpClient cannot name is none the guards know of.
			return false;
		}
	}

}
