package dev.degradation.parts;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The last good value of an optional part per key (a product id, say), to answer with when the
 * part's call fails: bounded in entries (least recently used dropped first) and in age (an older
 * value is unknown, not stale). Safe for concurrent use.
 *
 * @param <K> the type of the key
 * @param <V> the type of the value
 */
public final class LastGood<K, V> {

	private final int maxEntries;

	private final long maxAgeMillis;

	private final Clock clock;

	private final Map<K, Stamped<V>> values;

	private LastGood(int maxEntries, Duration maxAge, Clock clock) {
		if (maxEntries < 1) {
			throw new IllegalArgumentException("'maxEntries' must be at least 1, but it is " + maxEntries);
		}
		if (maxAge.isNegative() || maxAge.isZero()) {
			throw new IllegalArgumentException("'maxAge' must be positive, but it is " + maxAge);
		}
		this.maxEntries = maxEntries;
		this.maxAgeMillis = maxAge.toMillis();
		this.clock = clock;
		this.values = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<K, Stamped<V>> eldest) {
				return size() > LastGood.this.maxEntries;
			}

		};
	}

	/**
	 * Create a memory of last good values.
	 * @param <K> the type of the key
	 * @param <V> the type of the value
	 * @param maxEntries how many keys it keeps
	 * @param maxAge how old a value may be when it is used
	 * @return the memory
	 */
	public static <K, V> LastGood<K, V> of(int maxEntries, Duration maxAge) {
		return of(maxEntries, maxAge, Clock.systemUTC());
	}

	/**
	 * Create a memory of last good values that ages by the given clock.
	 * @param <K> the type of the key
	 * @param <V> the type of the value
	 * @param maxEntries how many keys it keeps
	 * @param maxAge how old a value may be when it is used
	 * @param clock the clock
	 * @return the memory
	 */
	public static <K, V> LastGood<K, V> of(int maxEntries, Duration maxAge, Clock clock) {
		return new LastGood<>(maxEntries, maxAge, clock);
	}

	synchronized void remember(K key, V value) {
		this.values.put(key, new Stamped<>(value, this.clock.millis()));
	}

	/**
	 * Return the last good value of a key with its age, if it is not older than the bound.
	 */
	synchronized @Nullable Aged<V> recall(K key) {
		Stamped<V> stamped = this.values.get(key);
		if (stamped == null) {
			return null;
		}
		long age = this.clock.millis() - stamped.at;
		if (age > this.maxAgeMillis) {
			this.values.remove(key);
			return null;
		}
		return new Aged<>(stamped.value, Duration.ofMillis(Math.max(0, age)));
	}

	/** Return how many keys are remembered. */
	public synchronized int size() {
		return this.values.size();
	}

	record Aged<V>(V value, Duration age) {

	}

	private record Stamped<V>(V value, long at) {

	}

}
