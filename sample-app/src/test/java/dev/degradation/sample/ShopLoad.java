package dev.degradation.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small, bounded load on the sample shop from one thread of its own: every route in turn, about
 * {@code perSecond} requests a second, until closed or until {@code maxRequests} or
 * {@code maxDuration} is reached, whichever comes first. Only to 127.0.0.1.
 */
final class ShopLoad implements AutoCloseable {

	private static final List<String> GETS = List.of("/api/products", "/api/recommendations", "/api/personalization",
			"/api/ab/assign", "/api/checkout/suggestions");

	private final CountDownLatch stop = new CountDownLatch(1);

	private final AtomicLong sent = new AtomicLong();

	private final Thread thread;

	private ShopLoad(ShopClient shop, int perSecond, long maxRequests, Duration maxDuration) {
		long pauseNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
		long deadline = System.nanoTime() + maxDuration.toNanos();
		this.thread = new Thread(() -> {
			try {
				while (this.sent.get() < maxRequests && System.nanoTime() < deadline) {
					long n = this.sent.getAndIncrement();
					int route = (int) (n % (GETS.size() + 1));
					try {
						if (route == GETS.size()) {
							shop.post("/api/analytics/track", "{\"name\": \"product-viewed\"}");
						}
						else {
							shop.get(GETS.get(route));
						}
					}
					catch (RuntimeException ex) {
						// A failed request is part of the load's picture, not the test's failure.
					}
					if (this.stop.await(pauseNanos, TimeUnit.NANOSECONDS)) {
						return;
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "shop-load");
		this.thread.setDaemon(true);
	}

	static ShopLoad start(ShopClient shop, int perSecond, long maxRequests, Duration maxDuration) {
		ShopLoad load = new ShopLoad(shop, perSecond, maxRequests, maxDuration);
		load.thread.start();
		return load;
	}

	long sent() {
		return this.sent.get();
	}

	@Override
	public void close() throws InterruptedException {
		this.stop.countDown();
		this.thread.join(TimeUnit.SECONDS.toMillis(15));
	}

}
