package dev.degradation.overload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import com.netflix.concurrency.limits.limit.FixedLimit;
import org.junit.jupiter.api.RepeatedTest;

import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.Admission.NotAdmitted;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admission under contention: threads that park for a place, requests that wait without a thread
 * (as a reactive stack's do, some timing out, some cancelled by a client that left), and holders
 * that end every way a request can, all at once. No place is lost or handed out twice: the
 * requests holding a place never exceed the limit, and when all is done nothing is in flight,
 * nothing waits, and every admitted request reported exactly once.
 */
class ConcurrentAdmissionTests {

	private static final int LIMIT = 4;

	@RepeatedTest(3)
	void noPlaceIsLostOrHandedOutTwiceUnderContention() throws Exception {
		Admission admission = new Admission(FixedLimit.of(LIMIT), 2, Duration.ofMillis(20), System::nanoTime);
		AtomicInteger holding = new AtomicInteger();
		AtomicInteger mostHolding = new AtomicInteger();
		AtomicLong reports = new AtomicLong();
		int threads = 8;
		int rounds = 400;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		for (int worker = 0; worker < threads; worker++) {
			boolean parks = worker % 2 == 0;
			List<CompletableFuture<?>> mine = new ArrayList<>();
			workers.add(pool.submit(() -> {
				start.await();
				for (int round = 0; round < rounds; round++) {
					ThreadLocalRandom random = ThreadLocalRandom.current();
					int rank = random.nextInt(3);
					Admission.Decision decision = admission.decide(rank, Deadline.NONE);
					if (decision instanceof Admitted admitted) {
						hold(admitted, holding, mostHolding, reports);
					}
					else if (decision == NotAdmitted.WAIT) {
						if (parks) {
							Admitted admitted = admission.await(admission.waitBound(Deadline.NONE));
							if (admitted != null) {
								hold(admitted, holding, mostHolding, reports);
							}
						}
						else {
							CompletableFuture<Admitted> waiter = admission.awaitWithoutThread()
								.completeOnTimeout(null, random.nextInt(1, 5), TimeUnit.MILLISECONDS);
							if (random.nextInt(10) == 0) {
								// A client that left: a place it was just handed must come back.
								waiter.cancel(false);
							}
							mine.add(waiter.thenAccept((admitted) -> {
								if (admitted != null) {
									hold(admitted, holding, mostHolding, reports);
								}
							}));
						}
					}
				}
				CompletableFuture.allOf(mine.toArray(CompletableFuture[]::new)).exceptionally((ex) -> null).join();
				return null;
			}));
		}
		start.countDown();
		for (Future<?> worker : workers) {
			worker.get(60, TimeUnit.SECONDS);
		}
		pool.shutdown();
		assertThat(mostHolding.get()).as("requests holding a place at once").isLessThanOrEqualTo(LIMIT).isPositive();
		assertThat(admission.inflight()).as("in flight after all ended").isZero();
		assertThat(admission.waiting()).as("waiting after all ended").isZero();
		assertThat(admission.succeeded() + admission.ignored() + admission.dropped())
			.as("every admitted request reported once")
			.isEqualTo(admission.admitted())
			.isEqualTo(reports.get());
		assertThat(admission.waits()).as("waits that ended").isPositive();
	}

	private static void hold(Admitted admitted, AtomicInteger holding, AtomicInteger mostHolding, AtomicLong reports) {
		int now = holding.incrementAndGet();
		mostHolding.accumulateAndGet(now, Math::max);
		// The work of a request: long enough for others to find every place taken.
		LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(20_000, 200_000));
		holding.decrementAndGet();
		reports.incrementAndGet();
		switch (ThreadLocalRandom.current().nextInt(3)) {
			case 0 -> admitted.onSuccess();
			case 1 -> admitted.onIgnore();
			default -> admitted.onDropped();
		}
		// A second report changes nothing.
		admitted.onIgnore();
	}

}
