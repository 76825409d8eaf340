package dev.degradation.overload;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.FixedLimit;
import org.junit.jupiter.api.Test;

import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.Admission.NotAdmitted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission decisions with a test clock: the limit, the tier partitions, the queue bound and the
 * caller's deadline, and what each way a request ends tells the limit.
 */
class AdmissionTests {

	private static final long NO_DEADLINE = Deadline.NONE;

	private final AtomicLong nanos = new AtomicLong(1_000);

	@Test
	void aCoreRequestIsAdmittedUpToTheLimitAndThenWaitsOrIsRefused() {
		Admission queued = admission(2, 2, Duration.ofMillis(50));
		assertThat(queued.decide(queued.coreRank(), NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(queued.decide(queued.coreRank(), NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(queued.inflight()).isEqualTo(2);
		assertThat(queued.decide(queued.coreRank(), NO_DEADLINE)).isEqualTo(NotAdmitted.WAIT);
		Admission unqueued = admission(1, 2, Duration.ZERO);
		assertThat(unqueued.decide(unqueued.coreRank(), NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(unqueued.decide(unqueued.coreRank(), NO_DEADLINE)).isEqualTo(NotAdmitted.REFUSED);
		assertThat(unqueued.refused()).isEqualTo(1);
	}

	@Test
	void aRequestWaitingWithoutAThreadIsHandedTheFirstPlaceThatFreesFirstComeFirst() {
		Admission admission = admission(1, 1, Duration.ofMillis(50));
		Admitted holder = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		CompletableFuture<Admitted> first = admission.awaitWithoutThread();
		CompletableFuture<Admitted> second = admission.awaitWithoutThread();
		assertThat(admission.waiting()).isEqualTo(2);
		holder.onSuccess();
		assertThat(first).isCompleted();
		assertThat(second).isNotDone();
		assertThat(admission.inflight()).isEqualTo(1);
		first.join().onSuccess();
		assertThat(second.join()).isNotNull();
		assertThat(admission.waiting()).isZero();
		assertThat(admission.waits()).isEqualTo(2);
	}

	@Test
	void aWaitWhoseTimeRanOutOrWhoseClientLeftIsRefusedAndHoldsNoPlace() {
		Admission admission = admission(1, 1, Duration.ofMillis(50));
		Admitted holder = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		CompletableFuture<Admitted> timedOut = admission.awaitWithoutThread();
		CompletableFuture<Admitted> left = admission.awaitWithoutThread();
		// The time is up (what completeOnTimeout does), and a client leaves: both are refused.
		timedOut.complete(null);
		left.cancel(true);
		assertThat(admission.refused()).isEqualTo(2);
		assertThat(admission.waiting()).isZero();
		// The place that frees next is handed to no one who gave up: it is free again.
		holder.onSuccess();
		assertThat(admission.inflight()).isZero();
		assertThat(admission.decide(admission.coreRank(), NO_DEADLINE)).isInstanceOf(Admitted.class);
	}

	@Test
	void eachTiersPartitionIsACeilingOnEverythingInFlightSoTheLowestTiersAreShedFirst() {
		// A limit of 6 and two degradable ranks: rank 0 up to 2 in flight, rank 1 up to 4, core 6.
		Admission admission = admission(6, 2, Duration.ZERO);
		assertThat(admission.decide(0, NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(admission.decide(0, NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(admission.decide(0, NO_DEADLINE)).isEqualTo(NotAdmitted.SHED);
		assertThat(admission.decide(1, NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(admission.decide(1, NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(admission.decide(1, NO_DEADLINE)).isEqualTo(NotAdmitted.SHED);
		assertThat(admission.decide(admission.coreRank(), NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(admission.decide(admission.coreRank(), NO_DEADLINE)).isInstanceOf(Admitted.class);
		assertThat(admission.decide(admission.coreRank(), NO_DEADLINE)).isEqualTo(NotAdmitted.REFUSED);
		assertThat(admission.shed(0)).isEqualTo(1);
		assertThat(admission.shed(1)).isEqualTo(1);
		assertThat(admission.shed()).isEqualTo(2);
	}

	@Test
	void aLowTierIsShedWhileTheCoreHoldsThePlacesEvenWithNoneOfItsOwnInFlight() {
		Admission admission = admission(4, 1, Duration.ZERO);
		admission.decide(admission.coreRank(), NO_DEADLINE);
		admission.decide(admission.coreRank(), NO_DEADLINE);
		assertThat(admission.decide(0, NO_DEADLINE)).as("rank 0's ceiling is 2 of 4").isEqualTo(NotAdmitted.SHED);
		assertThat(admission.decide(admission.coreRank(), NO_DEADLINE)).isInstanceOf(Admitted.class);
	}

	@Test
	void aCoreRequestLoweredByItsCallerIsRefusedOverItsPartitionWithoutWaitingAndCountedAsRefused() {
		Admission admission = admission(4, 1, Duration.ofMillis(50));
		admission.decide(admission.coreRank(), NO_DEADLINE);
		assertThat(admission.decide(0, false, NO_DEADLINE)).as("under rank 0's ceiling of 2")
			.isInstanceOf(Admitted.class);
		assertThat(admission.decide(0, false, NO_DEADLINE)).isEqualTo(NotAdmitted.REFUSED);
		assertThat(admission.refused()).isEqualTo(1);
		assertThat(admission.shed()).isZero();
		assertThat(admission.decide(admission.coreRank(), false, NO_DEADLINE)).as("core, not lowered")
			.isInstanceOf(Admitted.class);
	}

	@Test
	void theWaitIsBoundedByTheQueueAndByTheCallersDeadline() {
		Admission admission = admission(1, 1, Duration.ofMillis(50));
		assertThat(admission.waitBound(NO_DEADLINE)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
		assertThat(admission.waitBound(TimeUnit.MILLISECONDS.toNanos(20))).isEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(admission.waitBound(TimeUnit.SECONDS.toNanos(5))).isEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
	}

	@Test
	void aRequestWhoseDeadlineHasPassedIsRefusedAtOnceEvenWithRoom() {
		Admission admission = admission(10, 1, Duration.ofMillis(50));
		assertThat(admission.decide(admission.coreRank(), Deadline.PASSED)).isEqualTo(NotAdmitted.DEADLINE_PASSED);
		assertThat(admission.decide(0, Deadline.PASSED)).isEqualTo(NotAdmitted.DEADLINE_PASSED);
		assertThat(admission.inflight()).isZero();
		assertThat(admission.refusedForDeadline()).isEqualTo(2);
	}

	@Test
	void aSuccessIsASampleOfTheLimitWithItsLatencyAndTheInFlightItStartedWith() {
		RecordingLimit limit = new RecordingLimit(4);
		Admission admission = new Admission(limit, 1, Duration.ZERO, this.nanos::get);
		Admitted first = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		Admitted second = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(20));
		second.onSuccess();
		assertThat(limit.samples).containsExactly(new Sample(TimeUnit.MILLISECONDS.toNanos(20), 2, false));
		assertThat(admission.inflight()).isEqualTo(1);
		assertThat(admission.succeeded()).isEqualTo(1);
		first.onSuccess();
		assertThat(limit.samples).hasSize(2);
		assertThat(admission.inflight()).isZero();
	}

	@Test
	void anErrorIsIgnoredByTheLimitButFreesItsPlace() {
		RecordingLimit limit = new RecordingLimit(1);
		Admission admission = new Admission(limit, 1, Duration.ZERO, this.nanos::get);
		Admitted failed = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		this.nanos.addAndGet(TimeUnit.MICROSECONDS.toNanos(50));
		failed.onIgnore();
		assertThat(limit.samples).as("a fast failure must not teach the limit the service's speed").isEmpty();
		assertThat(admission.ignored()).isEqualTo(1);
		assertThat(admission.inflight()).isZero();
		assertThat(admission.decide(admission.coreRank(), NO_DEADLINE)).isInstanceOf(Admitted.class);
	}

	@Test
	void aRequestThatOutlivedItsCallerIsADropThatTheLimitCountsAsALoss() {
		RecordingLimit limit = new RecordingLimit(2);
		Admission admission = new Admission(limit, 1, Duration.ZERO, this.nanos::get);
		Admitted late = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		this.nanos.addAndGet(TimeUnit.SECONDS.toNanos(2));
		assertThat(late.elapsedNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(2));
		late.onDropped();
		assertThat(limit.samples).containsExactly(new Sample(TimeUnit.SECONDS.toNanos(2), 1, true));
		assertThat(admission.dropped()).isEqualTo(1);
	}

	@Test
	void aRequestThatEndedAfterItsCallersOwnDeadlineIsNoSampleUnlessTheServiceWasSlowByItsOwnBound() {
		RecordingLimit limit = new RecordingLimit(4);
		Admission admission = new Admission(limit, 1, Duration.ZERO, this.nanos::get);
		long longRequest = TimeUnit.SECONDS.toNanos(30);
		Admitted bounded = (Admitted) admission.decide(admission.coreRank(), TimeUnit.MILLISECONDS.toNanos(1));
		this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(3));
		bounded.ended(true, TimeUnit.MILLISECONDS.toNanos(1), longRequest, null);
		assertThat(limit.samples).as("the caller chose the bound it was ended after").isEmpty();
		Admitted slow = (Admitted) admission.decide(admission.coreRank(), TimeUnit.MILLISECONDS.toNanos(1));
		this.nanos.addAndGet(TimeUnit.SECONDS.toNanos(31));
		slow.ended(true, TimeUnit.MILLISECONDS.toNanos(1), longRequest, null);
		Admitted undeclared = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		this.nanos.addAndGet(TimeUnit.SECONDS.toNanos(31));
		undeclared.ended(true, NO_DEADLINE, longRequest, null);
		assertThat(limit.samples).as("longer than the service's own bound, whatever the caller sent")
			.containsExactly(new Sample(TimeUnit.SECONDS.toNanos(31), 1, true),
					new Sample(TimeUnit.SECONDS.toNanos(31), 1, true));
		Admitted inTime = (Admitted) admission.decide(admission.coreRank(), TimeUnit.MILLISECONDS.toNanos(10));
		this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(4));
		inTime.ended(true, TimeUnit.MILLISECONDS.toNanos(10), longRequest, null);
		Admitted notServed = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(4));
		notServed.ended(false, NO_DEADLINE, longRequest, null);
		assertThat(limit.samples).hasSize(3).last().isEqualTo(new Sample(TimeUnit.MILLISECONDS.toNanos(4), 1, false));
		assertThat(admission.succeeded()).isEqualTo(1);
		assertThat(admission.dropped()).isEqualTo(2);
		assertThat(admission.ignored()).isEqualTo(2);
		assertThat(admission.inflight()).isZero();
	}

	@Test
	void theTimeARequestWaitedForItsCallersBodyIsNoPartOfItsSample() {
		RecordingLimit limit = new RecordingLimit(2);
		Admission admission = new Admission(limit, 1, Duration.ZERO, this.nanos::get);
		Admitted admitted = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		this.nanos.addAndGet(TimeUnit.SECONDS.toNanos(9));
		admitted.waitedForBody(TimeUnit.SECONDS.toNanos(9));
		this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
		assertThat(admitted.serviceNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(5));
		admitted.ended(true, NO_DEADLINE, TimeUnit.SECONDS.toNanos(1), null);
		assertThat(limit.samples).containsExactly(new Sample(TimeUnit.MILLISECONDS.toNanos(5), 1, false));
	}

	@Test
	void theTimeARequestWaitedForItsCallerToTakeItsAnswerIsNoPartOfItsSample() {
		RecordingLimit limit = new RecordingLimit(2);
		Admission admission = new Admission(limit, 1, Duration.ZERO, this.nanos::get);
		Admitted admitted = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
		this.nanos.addAndGet(TimeUnit.SECONDS.toNanos(4));
		admitted.waitedForCaller(TimeUnit.SECONDS.toNanos(4));
		assertThat(admitted.serviceNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(5));
		admitted.ended(true, NO_DEADLINE, TimeUnit.SECONDS.toNanos(1), null);
		assertThat(limit.samples).as("a success, not a loss of a request longer than the service's bound")
			.containsExactly(new Sample(TimeUnit.MILLISECONDS.toNanos(5), 1, false));
	}

	@Test
	void onlyTheFirstReportOfARequestCounts() {
		RecordingLimit limit = new RecordingLimit(2);
		Admission admission = new Admission(limit, 1, Duration.ZERO, this.nanos::get);
		Admitted admitted = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		admission.decide(admission.coreRank(), NO_DEADLINE);
		admitted.onIgnore();
		admitted.onSuccess();
		admitted.onDropped();
		assertThat(limit.samples).isEmpty();
		assertThat(admission.inflight()).as("released once").isEqualTo(1);
	}

	@Test
	void aReleasedPlaceGoesToAWaitingCoreRequest() {
		Admission admission = new Admission(FixedLimit.of(1), 1, Duration.ofSeconds(5), System::nanoTime);
		Admitted first = (Admitted) admission.decide(admission.coreRank(), NO_DEADLINE);
		CompletableFuture<Admitted> waiter = CompletableFuture
			.supplyAsync(() -> admission.await(TimeUnit.SECONDS.toNanos(5)));
		await().atMost(Duration.ofSeconds(5)).until(() -> admission.waiting() == 1);
		first.onSuccess();
		first.onSuccess();
		assertThat(waiter).succeedsWithin(Duration.ofSeconds(5)).isNotNull();
		assertThat(admission.inflight()).as("released once, taken once").isEqualTo(1);
	}

	@Test
	void aWaitThatEndsWithoutAPlaceIsARefusal() {
		Admission admission = new Admission(FixedLimit.of(1), 1, Duration.ofMillis(20), System::nanoTime);
		admission.decide(admission.coreRank(), NO_DEADLINE);
		assertThat(admission.await(admission.waitBound(NO_DEADLINE))).isNull();
		assertThat(admission.refused()).isEqualTo(1);
		assertThat(admission.waits()).isEqualTo(1);
		assertThat(admission.waitedNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
	}

	private Admission admission(int limit, int ranks, Duration maxQueue) {
		return new Admission(FixedLimit.of(limit), ranks, maxQueue, this.nanos::get);
	}

	record Sample(long rtt, int inflight, boolean dropped) {

	}

	/**
	 * A fixed limit that records the samples it is given.
	 */
	static final class RecordingLimit implements Limit {

		final List<Sample> samples = new ArrayList<>();

		private final int limit;

		RecordingLimit(int limit) {
			this.limit = limit;
		}

		@Override
		public int getLimit() {
			return this.limit;
		}

		@Override
		public void notifyOnChange(java.util.function.Consumer<Integer> consumer) {
		}

		@Override
		public void onSample(long startTime, long rtt, int inflight, boolean didDrop) {
			this.samples.add(new Sample(rtt, inflight, didDrop));
		}

	}

}
