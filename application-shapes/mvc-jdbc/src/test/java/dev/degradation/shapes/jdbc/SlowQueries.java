package dev.degradation.shapes.jdbc;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A query that holds its connection until the test lets it go: H2 calls {@link #hold()} as the
 * SQL function {@code HOLD()} (public, for H2 to call it from its own package).
 */
public final class SlowQueries {

	private static volatile CountDownLatch release = new CountDownLatch(1);

	private SlowQueries() {
	}

	/**
	 * Hold the caller's connection until {@link #release()}, 30 seconds at most.
	 * @return 1
	 * @throws InterruptedException if the query's thread is interrupted
	 */
	public static int hold() throws InterruptedException {
		release.await(30, TimeUnit.SECONDS);
		return 1;
	}

	/**
	 * Make the next queries hold their connections.
	 */
	static void arm() {
		release = new CountDownLatch(1);
	}

	/**
	 * Let every held query end.
	 */
	static void release() {
		release.countDown();
	}

}
