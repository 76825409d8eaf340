package dev.degradation.web;

import java.security.Principal;
import java.time.Clock;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;

/**
 * The last good answers of the {@code stale} routes, one copy per request path, query and
 * {@code vary_by} headers, in bounded memory: so many copies and bytes per route, so many bytes in
 * all, and no answer larger than a limit. A route that is full drops its least recently used copy;
 * when the total is full, a route drops its own copies to make room and, if that is not enough,
 * keeps no copy of the new answer (one route can never evict another's).
 *
 * <p>A copy is never shared between users: a request with {@code Authorization} or
 * {@code Cookie} is not stored, nor served a copy, unless the route's {@code vary_by} names that
 * header (then the header's value is part of the key); an authenticated request's copies are its
 * principal's own, whatever authenticated it (an API key, a client certificate, a header of a
 * trusted proxy), since the principal's name is part of the key. Its own last answer is what a
 * user of a {@code stale} route expects, as Spring keeps a user's other state by that name (a
 * session's principal index, an OAuth2 client's authorization); refusing every authenticated
 * request would leave a secured API without copies at all. The copies of many users are bounded
 * as every copy is, within their route. Only the filter's capture of a live {@code GET} answer
 * stores; what it refuses is decided in {@link RouteCopies#offer}.
 */
public final class StaleAnswers {

	/**
	 * The request headers an answer may vary by whose copy still serves every caller: CORS's
	 * (they change only headers a copy does not replay) and {@code Accept-Encoding} (the server
	 * compresses below the copy).
	 */
	private static final Set<String> REPLAY_INDEPENDENT = Set.of("origin", "access-control-request-method",
			"access-control-request-headers", "accept-encoding");

	/** What a copy costs besides its body and key: the entry, the copy, the content type. */
	private static final int OVERHEAD_BYTES = 128;

	private final Limits limits;

	private final Clock clock;

	private final AtomicLong bytes = new AtomicLong();

	private final AtomicLong entries = new AtomicLong();

	private final LongAdder stored = new LongAdder();

	private final LongAdder evicted = new LongAdder();

	private final LongAdder refused = new LongAdder();

	private final LongAdder served = new LongAdder();

	/**
	 * Create a store.
	 * @param limits its bounds
	 * @param clock the clock by which copies age
	 */
	public StaleAnswers(Limits limits, Clock clock) {
		this.limits = limits;
		this.clock = clock;
	}

	RouteCopies forRoute(Route route, Fallback.Stale fallback) {
		return new RouteCopies(route.toString(), fallback.maxStaleSeconds() * 1000L, fallback.varyBy());
	}

	/**
	 * Return the bounds of this store.
	 * @return the bounds
	 */
	public Limits limits() {
		return this.limits;
	}

	/** Return the bytes held by every copy, as counted against {@link Limits#maxBytes()}. */
	public long bytes() {
		return this.bytes.get();
	}

	/** Return how many copies are held. */
	public long entries() {
		return this.entries.get();
	}

	/** Return how many answers were stored. */
	public long stored() {
		return this.stored.sum();
	}

	/** Return how many copies were dropped to keep within the bounds, or because they were too old. */
	public long evicted() {
		return this.evicted.sum();
	}

	/**
	 * Return how many good answers were not stored: larger than {@link Limits#maxAnswerBytes()},
	 * or no room left in the total.
	 */
	public long refused() {
		return this.refused.sum();
	}

	/** Return how many degraded answers were served from a copy. */
	public long served() {
		return this.served.sum();
	}

	/**
	 * The bounds of a store.
	 *
	 * @param maxEntriesPerRoute copies one route may hold
	 * @param maxBytesPerRoute bytes one route's copies may hold
	 * @param maxBytes bytes every copy together may hold
	 * @param maxAnswerBytes the largest body that is stored; a larger answer is passed on, not kept
	 */
	public record Limits(int maxEntriesPerRoute, long maxBytesPerRoute, long maxBytes, int maxAnswerBytes) {

		/** 1,000 copies and 4 MiB per route, 32 MiB in all, no body over 256 KiB. */
		public static final Limits DEFAULT = new Limits(1000, 4L << 20, 32L << 20, 256 << 10);

		public Limits {
			if (maxEntriesPerRoute < 1) {
				throw new IllegalArgumentException("'max-entries-per-route' must be at least 1");
			}
			if (maxAnswerBytes < 0 || maxBytesPerRoute < 0 || maxBytes < 0) {
				throw new IllegalArgumentException("Byte limits must not be negative");
			}
		}

	}

	/**
	 * A stored answer.
	 *
	 * @param status its status
	 * @param contentType its content type, or {@code null}
	 * @param body its body
	 * @param storedAtMillis when it was stored, by the store's clock
	 */
	record Copy(int status, @Nullable String contentType, byte[] body, long storedAtMillis) {

	}

	/**
	 * A copy about to be served, with its age.
	 *
	 * @param copy the copy
	 * @param ageSeconds its age in whole seconds, for {@code Age}
	 */
	record Served(Copy copy, long ageSeconds) {

	}

	/**
	 * The copies of one route, least recently used first. Its lock is held only by the requests
	 * of this route, for a map operation.
	 */
	public final class RouteCopies {

		private final String route;

		private final long maxAgeMillis;

		private final String[] varyBy;

		private final boolean variesByCredentials;

		private final boolean variesByCookie;

		private final LinkedHashMap<String, Entry> copies = new LinkedHashMap<>(16, 0.75f, true);

		private long routeBytes;

		RouteCopies(String route, long maxAgeMillis, List<String> varyBy) {
			this.route = route;
			this.maxAgeMillis = maxAgeMillis;
			this.varyBy = varyBy.toArray(String[]::new);
			this.variesByCredentials = varyBy.contains("authorization");
			this.variesByCookie = varyBy.contains("cookie");
		}

		/** Return whether the route's copies vary by a request header, so that private answers may be kept. */
		public boolean variesByHeaders() {
			return this.varyBy.length > 0;
		}

		/**
		 * Return the largest body that is kept.
		 * @return the bound in bytes
		 */
		public int maxAnswerBytes() {
			return StaleAnswers.this.limits.maxAnswerBytes();
		}

		/**
		 * Return the key of a request's copy: its path, query, the values of the route's
		 * {@code vary_by} headers and, for an authenticated request, its principal's name.
		 * @return the key, or {@code null} when the request carries credentials or cookies that
		 * the route does not vary by, or is authenticated as a principal without a name: such a
		 * request is neither stored nor served a copy
		 */
		public @Nullable String key(RequestView request) {
			if ((!this.variesByCredentials && request.header("Authorization") != null)
					|| (!this.variesByCookie && request.header("Cookie") != null)) {
				return null;
			}
			Principal principal = request.principal();
			String user = (principal != null) ? principal.getName() : null;
			if (principal != null && user == null) {
				return null;
			}
			String query = request.rawQuery();
			if (query == null && this.varyBy.length == 0 && user == null) {
				return request.rawPath();
			}
			StringBuilder key = new StringBuilder(request.rawPath());
			if (query != null) {
				key.append('?').append(query);
			}
			for (String header : this.varyBy) {
				String value = request.header(header);
				// A line break cannot occur in a header value, so keys of different values differ.
				key.append('\n').append((value != null) ? value : "");
			}
			if (user != null) {
				// Last, after one more line break than an anonymous key of the route has: whatever
				// a name holds, it can neither meet an anonymous key nor another name's.
				key.append('\n').append(user);
			}
			return key.toString();
		}

		@Nullable Served find(RequestView request) {
			String key = key(request);
			if (key == null) {
				return null;
			}
			long now = StaleAnswers.this.clock.millis();
			Copy copy;
			synchronized (this) {
				Entry entry = this.copies.get(key);
				if (entry == null) {
					return null;
				}
				if (now - entry.copy.storedAtMillis() > this.maxAgeMillis) {
					remove(key, entry);
					StaleAnswers.this.evicted.increment();
					return null;
				}
				copy = entry.copy;
			}
			StaleAnswers.this.served.increment();
			return new Served(copy, Math.max(0, (now - copy.storedAtMillis()) / 1000));
		}

		/**
		 * Keep a live answer if it is a complete good answer that another request may be given: a
		 * {@code 2xx} that sets no cookie, is not {@code no-store}, is {@code private} only if the
		 * route varies by a request header, varies by no request header the route does not vary
		 * by, and is not itself a degraded or partial answer.
		 * @param key the request's {@link #key(RequestView) key}
		 * @param status the answer's status
		 * @param headers the answer's headers, by name (any case) to their values
		 * @param body the whole body, or {@code null} when it was larger than
		 * {@link #maxAnswerBytes()} and was not kept
		 */
		public void offer(String key, int status, Function<String, List<String>> headers,
				byte @Nullable [] body) {
			if (status < 200 || status >= 300) {
				return;
			}
			if (body == null) {
				refuse();
				return;
			}
			if (!headers.apply("Set-Cookie").isEmpty() || !headers.apply(DegradationHeaders.DEGRADED).isEmpty()
					|| !headers.apply("X-Degraded-Parts").isEmpty()) {
				return;
			}
			for (String cacheControl : headers.apply("Cache-Control")) {
				String directives = cacheControl.toLowerCase(Locale.ROOT);
				if (directives.contains("no-store") || (directives.contains("private") && !variesByHeaders())) {
					return;
				}
			}
			if (!keyedByEveryVary(headers.apply("Vary"))) {
				return;
			}
			List<String> contentType = headers.apply("Content-Type");
			store(key, status, contentType.isEmpty() ? null : contentType.get(0), body);
		}

		/**
		 * Whether the copies are keyed by every request header the answer says it varies by: an
		 * answer that varies by another (an API key, a language) is one caller's, and kept under
		 * a key without that header it would be served to every other caller. The headers a copy
		 * does not depend on are no matter: CORS's, which change only headers a copy does not
		 * replay, and {@code Accept-Encoding}, which the server's compression adds below the copy.
		 */
		private boolean keyedByEveryVary(List<String> vary) {
			List<String> keyedBy = List.of(this.varyBy);
			for (String value : vary) {
				for (String name : value.split(",")) {
					String header = name.strip().toLowerCase(Locale.ROOT);
					if (!header.isEmpty() && !REPLAY_INDEPENDENT.contains(header) && !keyedBy.contains(header)) {
						return false;
					}
				}
			}
			return true;
		}

		void store(String key, int status, @Nullable String contentType, byte[] body) {
			long size = body.length + 2L * key.length() + ((contentType != null) ? 2L * contentType.length() : 0)
					+ OVERHEAD_BYTES;
			Limits limits = StaleAnswers.this.limits;
			if (size > limits.maxBytesPerRoute() || size > limits.maxBytes()) {
				StaleAnswers.this.refused.increment();
				return;
			}
			Entry entry = new Entry(new Copy(status, contentType, body, StaleAnswers.this.clock.millis()), size);
			synchronized (this) {
				Entry previous = this.copies.remove(key);
				if (previous != null) {
					release(previous);
				}
				Iterator<Map.Entry<String, Entry>> oldest = this.copies.entrySet().iterator();
				while ((this.copies.size() >= limits.maxEntriesPerRoute() || this.routeBytes + size > limits.maxBytesPerRoute()
						|| StaleAnswers.this.bytes.get() + size > limits.maxBytes()) && oldest.hasNext()) {
					Entry dropped = oldest.next().getValue();
					oldest.remove();
					release(dropped);
					StaleAnswers.this.evicted.increment();
				}
				// Another route may have taken the room meanwhile: reserve it, or keep nothing.
				if (StaleAnswers.this.bytes.addAndGet(size) > limits.maxBytes()) {
					StaleAnswers.this.bytes.addAndGet(-size);
					StaleAnswers.this.refused.increment();
					return;
				}
				this.copies.put(key, entry);
				this.routeBytes += size;
				StaleAnswers.this.entries.incrementAndGet();
			}
			StaleAnswers.this.stored.increment();
		}

		void refuse() {
			StaleAnswers.this.refused.increment();
		}

		private void remove(String key, Entry entry) {
			this.copies.remove(key);
			release(entry);
		}

		private void release(Entry entry) {
			this.routeBytes -= entry.size;
			StaleAnswers.this.bytes.addAndGet(-entry.size);
			StaleAnswers.this.entries.decrementAndGet();
		}

		/** Return how many copies the route holds. */
		synchronized int size() {
			return this.copies.size();
		}

		/** Return the bytes the route's copies hold. */
		synchronized long routeBytes() {
			return this.routeBytes;
		}

		@Override
		public String toString() {
			return this.route;
		}

	}

	private record Entry(Copy copy, long size) {

	}

}
