package dev.degradation.overload;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.netflix.concurrency.limits.limit.FixedLimit;
import org.junit.jupiter.api.Test;

import dev.degradation.overload.Admission.Decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission decisions with a test clock: the limit, the order of tiers, the queue bound and the
 * caller's deadline, and a hostile deadline header.
 */
class AdmissionTests {

	private final AtomicLong nanos = new AtomicLong();

	@Test
	void aCoreRequestIsAdmittedUpToTheLimitAndThenWaitsOrIsRefused() {
		Admission queued = admission(2, 2, Duration.ofMillis(50));
		assertThat(queued.decide(queued.coreRank(), -1)).isEqualTo(Decision.ADMITTED);
		assertThat(queued.decide(queued.coreRank(), -1)).isEqualTo(Decision.ADMITTED);
		assertThat(queued.inflight()).isEqualTo(2);
		assertThat(queued.decide(queued.coreRank(), -1)).isEqualTo(Decision.WAIT);
		Admission unqueued = admission(1, 2, Duration.ZERO);
		assertThat(unqueued.decide(unqueued.coreRank(), -1)).isEqualTo(Decision.ADMITTED);
		assertThat(unqueued.decide(unqueued.coreRank(), -1)).isEqualTo(Decision.REFUSED);
		assertThat(unqueued.refused()).isEqualTo(1);
	}

	@Test
	void theLowestTiersAreShedFirstAsSaturationGrows() {
		// A limit of 6 and two degradable ranks: rank 0 up to 2 in flight, rank 1 up to 4, core 6.
		Admission admission = admission(6, 2, Duration.ZERO);
		assertThat(admission.decide(0, -1)).isEqualTo(Decision.ADMITTED);
		assertThat(admission.decide(0, -1)).isEqualTo(Decision.ADMITTED);
		assertThat(admission.decide(0, -1)).isEqualTo(Decision.SHED);
		assertThat(admission.decide(1, -1)).isEqualTo(Decision.ADMITTED);
		assertThat(admission.decide(1, -1)).isEqualTo(Decision.ADMITTED);
		assertThat(admission.decide(1, -1)).isEqualTo(Decision.SHED);
		assertThat(admission.decide(admission.coreRank(), -1)).isEqualTo(Decision.ADMITTED);
		assertThat(admission.decide(admission.coreRank(), -1)).isEqualTo(Decision.ADMITTED);
		assertThat(admission.decide(admission.coreRank(), -1)).isEqualTo(Decision.REFUSED);
		assertThat(admission.shed(0)).isEqualTo(1);
		assertThat(admission.shed(1)).isEqualTo(1);
		assertThat(admission.shed()).isEqualTo(2);
	}

	@Test
	void theWaitIsBoundedByTheQueueAndByTheCallersDeadline() {
		Admission admission = admission(1, 1, Duration.ofMillis(50));
		assertThat(admission.waitBound(-1)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
		assertThat(admission.waitBound(TimeUnit.MILLISECONDS.toNanos(20))).isEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(admission.waitBound(TimeUnit.SECONDS.toNanos(5))).isEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
	}

	@Test
	void aRequestWhoseDeadlineHasPassedIsRefusedAtOnceEvenWithRoom() {
		Admission admission = admission(10, 1, Duration.ofMillis(50));
		assertThat(admission.decide(admission.coreRank(), 0)).isEqualTo(Decision.REFUSED_DEADLINE);
		assertThat(admission.decide(0, 0)).isEqualTo(Decision.REFUSED_DEADLINE);
		assertThat(admission.inflight()).isZero();
		assertThat(admission.refusedForDeadline()).isEqualTo(2);
	}

	@Test
	void aDeadlineHeaderIsNeverTrustedBeyondTheMaximum() {
		Duration max = Duration.ofSeconds(30);
		assertThat(Admission.deadlineNanos("1000", max)).isEqualTo(TimeUnit.SECONDS.toNanos(1));
		assertThat(Admission.deadlineNanos(" 250 ", max)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
		// A century, in milliseconds.
		assertThat(Admission.deadlineNanos("3155760000000", max)).isEqualTo(max.toNanos());
		assertThat(Admission.deadlineNanos("99999999999999999999999", max)).as("too long to read").isEqualTo(-1);
		assertThat(Admission.deadlineNanos("0", max)).isZero();
		assertThat(Admission.deadlineNanos("-5", max)).isZero();
		assertThat(Admission.deadlineNanos("soon", max)).isEqualTo(-1);
		assertThat(Admission.deadlineNanos("", max)).isEqualTo(-1);
		assertThat(Admission.deadlineNanos(null, max)).isEqualTo(-1);
	}

	@Test
	void aReleasedPlaceGoesToAWaitingCoreRequest() {
		Admission admission = new Admission(FixedLimit.of(1), 1, Duration.ofSeconds(5), System::nanoTime);
		assertThat(admission.decide(admission.coreRank(), -1)).isEqualTo(Decision.ADMITTED);
		Admission.Permit first = admission.permit();
		CompletableFuture<Boolean> waiter = CompletableFuture
			.supplyAsync(() -> admission.await(TimeUnit.SECONDS.toNanos(5)));
		await().atMost(Duration.ofSeconds(5)).until(() -> admission.waiting() == 1);
		first.release(false);
		first.release(false);
		assertThat(waiter).succeedsWithin(Duration.ofSeconds(5)).isEqualTo(true);
		assertThat(admission.inflight()).as("released once, taken once").isEqualTo(1);
	}

	@Test
	void aWaitThatEndsWithoutAPlaceIsARefusal() {
		Admission admission = new Admission(FixedLimit.of(1), 1, Duration.ofMillis(20), System::nanoTime);
		admission.decide(admission.coreRank(), -1);
		assertThat(admission.await(admission.waitBound(-1))).isFalse();
		assertThat(admission.refused()).isEqualTo(1);
		assertThat(admission.waits()).isEqualTo(1);
		assertThat(admission.waitedNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
	}

	private Admission admission(int limit, int ranks, Duration maxQueue) {
		return new Admission(FixedLimit.of(limit), ranks, maxQueue, this.nanos::get);
	}

}
