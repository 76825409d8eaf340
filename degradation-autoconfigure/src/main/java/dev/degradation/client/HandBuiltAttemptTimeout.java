package dev.degradation.client;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.util.ConcurrentReferenceHashMap;
import org.springframework.util.ReflectionUtils;

/**
 * The per-request timeout of guarded calls through a request factory the application built
 * itself: Spring's JDK factory ({@link JdkClientHttpRequestFactory}) or its
 * {@code HttpURLConnection} factory ({@link SimpleClientHttpRequestFactory}). A request made
 * within a guarded attempt gets the attempt's time limit as its timeouts, unless the factory's own
 * are shorter, so the client gives up on the caller's thread and the call needs no thread of its
 * own. Other requests get the factory's settings, untouched.
 *
 * <p>Each factory copies its timeouts into a request when it creates it, and has one setting for
 * all its requests, which it does not let anyone read: this factory sets the limit on the
 * application's factory just before the request is created and puts the factory's own setting
 * back at once, under a lock per factory held for no more than that, shared by every client
 * built on the factory that the starter saw (a client it never saw, built on the same factory
 * outside any bean, could create a request in that instant and get the limit as its timeout).
 * The JDK's timeout bounds the whole exchange, from the connection to the
 * body's last byte (as {@link JdkAttemptTimeout}); {@code HttpURLConnection}'s are one for the
 * connection and one for each read (as Apache HttpClient's response timeout), so a dependency
 * that drips its answer can take longer in all, while one that hangs is given up at the limit.
 *
 * <p>{@link #of} answers {@code null} for any other factory (a subclass included, but for the
 * one Boot's builder makes: its {@code createRequest} may not read the settings) and should Spring's field names change: such
 * a client's guarded calls then run on the guards' bounded executor, and startup says so.
 */
public final class HandBuiltAttemptTimeout implements ClientHttpRequestFactory {

	/**
	 * The subclass Boot's builder makes of the {@code HttpURLConnection} factory: it adds its SSL
	 * settings to each connection after Spring's own, its timeouts among them.
	 */
	private static final String BOOTS_HTTPS_FACTORY = "org.springframework.boot.http.client.SimpleClientHttpRequestFactoryBuilder$SimpleClientHttpsRequestFactory";

	/** One lock per application factory, however many clients are built on it. */
	private static final Map<ClientHttpRequestFactory, Lock> locks = new ConcurrentReferenceHashMap<>(16,
			ConcurrentReferenceHashMap.ReferenceType.WEAK);

	private final ClientHttpRequestFactory factory;

	private final Field[] timeouts;

	private final Lock creating;

	private HandBuiltAttemptTimeout(ClientHttpRequestFactory factory, Field[] timeouts) {
		this.factory = factory;
		this.timeouts = timeouts;
		this.creating = locks.computeIfAbsent(factory, (key) -> new ReentrantLock());
	}

	/**
	 * Return the factory that bounds the guarded requests of an application's factory.
	 * @param factory the factory the application built
	 * @return the bounding factory, or {@code null} when the factory's timeouts cannot be set
	 * per request
	 */
	public static @Nullable HandBuiltAttemptTimeout of(ClientHttpRequestFactory factory) {
		Field[] timeouts;
		if (factory.getClass() == JdkClientHttpRequestFactory.class) {
			timeouts = fields(JdkClientHttpRequestFactory.class, Duration.class, "readTimeout");
		}
		else if (factory.getClass() == SimpleClientHttpRequestFactory.class
				|| factory.getClass().getName().equals(BOOTS_HTTPS_FACTORY)) {
			timeouts = fields(SimpleClientHttpRequestFactory.class, int.class, "connectTimeout", "readTimeout");
		}
		else {
			return null;
		}
		return (timeouts != null) ? new HandBuiltAttemptTimeout(factory, timeouts) : null;
	}

	private static Field @Nullable [] fields(Class<?> type, Class<?> valueType, String... names) {
		Field[] fields = new Field[names.length];
		for (int i = 0; i < names.length; i++) {
			Field field = ReflectionUtils.findField(type, names[i], valueType);
			if (field == null) {
				return null;
			}
			try {
				ReflectionUtils.makeAccessible(field);
			}
			catch (RuntimeException ex) {
				// A module system that keeps Spring's fields closed.
				return null;
			}
			fields[i] = field;
		}
		return fields;
	}

	/**
	 * Return the factory the application built.
	 * @return the factory whose requests this one bounds
	 */
	public ClientHttpRequestFactory factory() {
		return this.factory;
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		Duration limit = AttemptLimit.claim();
		this.creating.lock();
		try {
			if (limit == null) {
				return this.factory.createRequest(uri, httpMethod);
			}
			Object[] configured = new Object[this.timeouts.length];
			for (int i = 0; i < this.timeouts.length; i++) {
				configured[i] = ReflectionUtils.getField(this.timeouts[i], this.factory);
				ReflectionUtils.setField(this.timeouts[i], this.factory, limited(configured[i], limit));
			}
			try {
				return this.factory.createRequest(uri, httpMethod);
			}
			finally {
				for (int i = 0; i < this.timeouts.length; i++) {
					ReflectionUtils.setField(this.timeouts[i], this.factory, configured[i]);
				}
			}
		}
		finally {
			this.creating.unlock();
		}
	}

	/**
	 * The shorter of a configured timeout and the limit: a {@code Duration} (none when
	 * {@code null} or zero) or milliseconds as an {@code int} (none when zero or less).
	 */
	static Object limited(@Nullable Object configured, Duration limit) {
		if (configured instanceof Integer millis) {
			long bound = Math.max(1, Math.min(limit.toMillis(), Integer.MAX_VALUE));
			return (millis > 0 && millis < bound) ? millis : (int) bound;
		}
		return JdkAttemptTimeout.shorter((Duration) configured, limit);
	}

}
