package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;

/**
 * The JDK {@code HttpClient}'s per-request timeout for guarded calls: a request factory over
 * Spring's {@link JdkClientHttpRequestFactory} that gives a request made within a guarded attempt
 * the attempt's time limit as its read timeout, unless the configured one is shorter. Spring's
 * JDK request enforces that timeout on the whole exchange, from the connection to the last byte
 * of the body: it gives up on waiting for the answer's headers with an
 * {@code HttpTimeoutException}, and closes a body still unread at the limit, so a dependency that
 * sends its headers and then hangs is given up in time too. The wait runs on the caller's thread
 * and the JDK's shared delay scheduler, so the guarded call needs no thread of its own. Other
 * requests get the configured read timeout, as without this factory.
 *
 * <p>Spring's factory has one read timeout for all its requests, which each request copies when
 * it is created; this factory owns its delegate and sets the timeout of every request just before
 * creating it, under a lock held for no more than that.
 */
public final class JdkAttemptTimeout implements ClientHttpRequestFactory {

	private final JdkClientHttpRequestFactory factory;

	private final @Nullable Duration readTimeout;

	private final Lock creating = new ReentrantLock();

	/**
	 * Create a factory over one of Spring's JDK factories, which no one else may use.
	 * @param factory the JDK factory, with the client and the settings of the application
	 * @param readTimeout the read timeout the factory was configured with, or {@code null} for none
	 */
	public JdkAttemptTimeout(JdkClientHttpRequestFactory factory, @Nullable Duration readTimeout) {
		this.factory = factory;
		this.readTimeout = readTimeout;
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		Duration limit = AttemptLimit.claim();
		Duration timeout = (limit != null) ? shorter(this.readTimeout, limit) : this.readTimeout;
		this.creating.lock();
		try {
			this.factory.setReadTimeout(timeout);
			return this.factory.createRequest(uri, httpMethod);
		}
		finally {
			this.creating.unlock();
		}
	}

	/** The shorter of the configured timeout (none when {@code null} or zero) and the limit. */
	static Duration shorter(@Nullable Duration configured, Duration limit) {
		Duration atLeastOneMilli = limit.isNegative() || limit.isZero() ? Duration.ofMillis(1) : limit;
		return (configured != null && !configured.isZero() && !configured.isNegative()
				&& configured.compareTo(atLeastOneMilli) < 0) ? configured : atLeastOneMilli;
	}

}
