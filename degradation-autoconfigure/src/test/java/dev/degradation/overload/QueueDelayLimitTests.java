package dev.degradation.overload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adaptive limit against simulated services, on a simulated clock: a service of a fixed
 * number of connections, each holding a request for its service time, offered far more than it
 * can take (every place that frees is taken at once, as by a retry storm); and a service that is
 * busy but has no queue. What it must show: admitted requests wait little more than the service
 * time at a limit of 1 and at a limit of 10, the service's connections are all used, and a busy
 * service without a queue is never refused.
 */
class QueueDelayLimitTests {

	private static final long SERVICE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	@Test
	void aServiceOfOneConnectionKeepsItsLimitAtOneOrTwoAndAnswersNearItsServiceTime() {
		Saturated service = new Saturated(new QueueDelayLimit(), 1, SERVICE_NANOS).run(20 * SECOND);
		assertThat(service.lowestLimit).as(service.toString()).isEqualTo(1);
		assertThat(service.highestLimit).as(service.toString()).isEqualTo(2);
		// Mostly at 1: a probe at 2 makes its requests wait a whole service time, and a probe
		// that made a queue is tried again twice as late each time.
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(SERVICE_NANOS * 11 / 10);
		assertThat(service.quantile(0.99)).isLessThanOrEqualTo(5 * SERVICE_NANOS);
		assertThat(service.completedPerSecond()).as("the connection is never idle").isGreaterThan(49.0);
	}

	@Test
	void aServiceOfEightConnectionsUsesThemAllAndAnswersNearItsServiceTime() {
		Saturated service = new Saturated(new QueueDelayLimit(), 8, SERVICE_NANOS).run(20 * SECOND);
		assertThat(service.lowestLimit).as(service.toString()).isGreaterThanOrEqualTo(8);
		assertThat(service.highestLimit).as(service.toString()).isLessThanOrEqualTo(24);
		assertThat(service.quantile(0.50)).isLessThanOrEqualTo(2 * SERVICE_NANOS);
		assertThat(service.quantile(0.99)).isLessThanOrEqualTo(3 * SERVICE_NANOS);
		assertThat(service.completedPerSecond()).isGreaterThan(8 * 49.0);
	}

	@Test
	void fromAHighLimitAnOverloadedServiceIsBroughtDownOnceItsQueueHasBeenSeen() {
		// 200 requests admitted at once on one connection are 4 s of work: the limit comes down
		// by half per interval judged as their latencies come in, and stays down.
		Saturated service = new Saturated(new QueueDelayLimit(200), 1, SERVICE_NANOS).run(5 * SECOND);
		assertThat(service.limit.getLimit()).isLessThanOrEqualTo(2);
	}

	@Test
	void aBusyServiceWithoutAQueueIsNeverRefused() {
		// Sixteen callers in a closed loop on a service at its CPU's limit: each request takes
		// 50 us to 3 ms, now and then a collection pauses everything for 40 ms. The limit must
		// stay above the callers, so that none is ever refused.
		QueueDelayLimit limit = new QueueDelayLimit();
		Random random = new Random(41);
		long now = 0;
		int lowest = Integer.MAX_VALUE;
		for (int i = 0; i < 400_000; i++) {
			long latency = TimeUnit.MICROSECONDS.toNanos(50 + random.nextInt(3000));
			if (i % 20_000 == 0) {
				latency += TimeUnit.MILLISECONDS.toNanos(40);
			}
			limit.onSample(now, latency, 16, false);
			now += latency / 16;
			lowest = Math.min(lowest, limit.getLimit());
		}
		assertThat(lowest).isGreaterThanOrEqualTo(16);
	}

	@Test
	void aLimitThatIsNotUsedDoesNotGrow() {
		QueueDelayLimit limit = new QueueDelayLimit();
		long now = 0;
		for (int i = 0; i < 1000; i++) {
			limit.onSample(now, SERVICE_NANOS, 3, false);
			now += SERVICE_NANOS;
		}
		assertThat(limit.getLimit()).isEqualTo(QueueDelayLimit.INITIAL_LIMIT);
	}

	@Test
	void callersFewerThanHalfTheLimitAreNeverRefusedThoughTheyWaitForEachOther() {
		// Three callers in a closed loop on one connection, the limit at its start: each request
		// waits for the two others, a queue the limit could only tell from a service that is
		// merely slow by cutting, that is by refusing. A limit not half used is not judged, so
		// that a healthy service whose latency varies is never refused: the price is this queue.
		Saturated service = new Saturated(new QueueDelayLimit(), 1, SERVICE_NANOS);
		service.callers = 3;
		service.run(20 * SECOND);
		assertThat(service.lowestLimit).as(service.toString()).isGreaterThanOrEqualTo(3);
		assertThat(service.quantile(0.50)).as(service.toString())
			.isBetween(5 * SERVICE_NANOS / 2, 7 * SERVICE_NANOS / 2);
	}

	@Test
	void aServiceThatBecomesSlowerForGoodIsMeasuredAnewWithinTwoEpochs() {
		Saturated service = new Saturated(new QueueDelayLimit(), 8, SERVICE_NANOS).run(10 * SECOND);
		service.serviceNanos = 5 * SERVICE_NANOS;
		service.run(2 * QueueDelayLimit.EPOCH_NANOS);
		service.run(10 * SECOND);
		assertThat(service.limit.noLoadNanos()).isBetween(5 * SERVICE_NANOS * 3 / 4, 5 * SERVICE_NANOS);
		assertThat(service.lowestLimit).as("over the last seconds: " + service).isGreaterThanOrEqualTo(8);
	}

	@Test
	void aWaitEveryRequestMeetsDoesNotTakeTheLimitBelowTheConnections() {
		// The pool of eight under a flood of refusals: every request also waits 15 ms, give or
		// take half, for the CPU. Fewer requests at once would not wait less, only serve fewer.
		Saturated service = settledThenWaitingForTheCpu(8, TimeUnit.MILLISECONDS.toNanos(15));
		service.run(10 * SECOND);
		long held = SERVICE_NANOS + service.cpuWaitNanos;
		// Three quarters of the connections: how far the limit probes before it tells the wait
		// from a queue of its own.
		assertThat(service.lowestLimit).as(service.toString()).isGreaterThanOrEqualTo(6);
		assertThat(service.completedPerSecond()).as(service.toString()).isGreaterThan(0.95 * 8 * SECOND / held);
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(2 * held);
		assertThat(service.quantile(0.99)).as(service.toString()).isLessThanOrEqualTo(3 * held);
	}

	@Test
	void aWaitEveryRequestMeetsLeavesAServiceOfOneConnectionAtOneOrTwo() {
		Saturated service = settledThenWaitingForTheCpu(1, TimeUnit.MILLISECONDS.toNanos(15));
		service.run(10 * SECOND);
		long held = SERVICE_NANOS + service.cpuWaitNanos;
		assertThat(service.highestLimit).as(service.toString()).isLessThanOrEqualTo(2);
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(held * 5 / 4);
		assertThat(service.quantile(0.99)).as(service.toString()).isLessThanOrEqualTo(3 * held);
		assertThat(service.completedPerSecond()).as(service.toString()).isGreaterThan(0.95 * SECOND / held);
	}

	@Test
	void aLongerWaitForTheCpuThanTheServiceTimeLeavesAServiceOfOneConnectionMostlyAtOne() {
		// Every request also waits for the CPU, up to 60 ms, more or less from one tenth of a
		// second to the next: from two requests to one, the wait is a service time shorter, often
		// less than a quarter of it, and still a queue gone.
		Saturated service = settledThenWaitingForTheCpu(1, TimeUnit.MILLISECONDS.toNanos(30));
		service.cpuWaitInBursts = true;
		service.run(20 * SECOND);
		long held = SERVICE_NANOS + service.cpuWaitNanos;
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(held * 5 / 4);
	}

	@Test
	void onceTheWaitEveryRequestMetIsGoneTheLimitJudgesByTheServiceTimeAgain() {
		Saturated service = settledThenWaitingForTheCpu(8, TimeUnit.MILLISECONDS.toNanos(15));
		service.run(10 * SECOND);
		service.cpuWaitNanos = 0;
		service.run(10 * SECOND);
		assertThat(service.limit.noLoadNanos()).as(service.toString()).isLessThanOrEqualTo(SERVICE_NANOS);
		assertThat(service.highestLimit).as(service.toString()).isLessThanOrEqualTo(24);
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(2 * SERVICE_NANOS);
		assertThat(service.quantile(0.99)).as(service.toString()).isLessThanOrEqualTo(3 * SERVICE_NANOS);
	}

	/**
	 * A saturated service of {@code connections} whose limit has settled over ten seconds, from
	 * now on with every request also waiting {@code cpuWaitNanos} for the CPU.
	 */
	private static Saturated settledThenWaitingForTheCpu(int connections, long cpuWaitNanos) {
		Saturated service = new Saturated(new QueueDelayLimit(), connections, SERVICE_NANOS).run(10 * SECOND);
		service.cpuWaitNanos = cpuWaitNanos;
		return service;
	}

	@Test
	void aServiceStartedColdIntoAStormFindsItsNoLoadLatencyOnceWarm() {
		// One connection offered far more than it takes from its first request, in its first
		// second six times slower (a JVM just started): no request is ever served without a queue
		// once it is warm, so its shortest latency is a cold one, then a queued one.
		Saturated service = startedColdIntoAStorm(1);
		assertThat(service.limit.noLoadNanos()).as(service.toString()).isLessThanOrEqualTo(SERVICE_NANOS);
		assertThat(service.highestLimit).as(service.toString()).isLessThanOrEqualTo(2);
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(SERVICE_NANOS * 5 / 4);
		service.run(2 * QueueDelayLimit.EPOCH_NANOS);
		assertThat(service.quantile(0.50)).as("two epochs on: " + service).isLessThanOrEqualTo(SERVICE_NANOS * 5 / 4);
	}

	@Test
	void aPoolOfEightStartedColdIntoAStormLosesNothingThatShowsToTheProbesOfItsNoLoadLatency() {
		// The pool finds its no-load latency without the probes too (a connection falls idle now
		// and then): what this guards is that halving the limit now and then costs it nothing
		// that shows.
		Saturated service = startedColdIntoAStorm(8);
		assertThat(service.limit.noLoadNanos()).as(service.toString()).isLessThanOrEqualTo(SERVICE_NANOS);
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(2 * SERVICE_NANOS);
		assertThat(service.completedPerSecond()).as(service.toString()).isGreaterThan(8 * 45.0);
	}

	/**
	 * A service of {@code connections} offered far more than it takes from its first request,
	 * six times slower in its first second (a JVM just started), after twenty seconds of it.
	 */
	private static Saturated startedColdIntoAStorm(int connections) {
		Saturated service = new Saturated(new QueueDelayLimit(), connections, SERVICE_NANOS);
		service.coldUntil = SECOND;
		service.coldFactor = 6;
		return service.run(20 * SECOND);
	}

	@Test
	void aFastRouteBesideASlowOneIsNoMeasureOfTheSlowOnesWait() {
		// A status route answered in half a millisecond twice a second, beside a checkout of
		// 20 ms that is offered far more than its eight connections take: the checkout's 20 ms
		// is its service time, not a wait.
		Saturated service = new Saturated(new QueueDelayLimit(), 8, SERVICE_NANOS);
		service.kind = "/api/checkout";
		service.fastRequestEvery = SECOND / 2;
		service.run(20 * SECOND);
		assertThat(service.lowestLimit).as(service.toString()).isGreaterThanOrEqualTo(8);
		assertThat(service.completedPerSecond()).as(service.toString()).isGreaterThan(8 * 49.0);
	}

	@Test
	void theFirstRequestOfAKindIsNoEvidenceThatNothingWaits() {
		// Requests of kinds not seen before, each its own no-load latency: nothing says whether
		// they waited, so the limit neither grows nor comes down on them.
		QueueDelayLimit limit = new QueueDelayLimit();
		long now = 0;
		for (int i = 0; i < 40; i++) {
			now += QueueDelayLimit.INTERVAL_NANOS;
			limit.onSample("/rare/" + i, now, SERVICE_NANOS, QueueDelayLimit.INITIAL_LIMIT, false);
		}
		assertThat(limit.getLimit()).isEqualTo(QueueDelayLimit.INITIAL_LIMIT);
	}

	@Test
	void kindsBeyondTheTableShareOneNoLoadLatency() {
		QueueDelayLimit limit = new QueueDelayLimit();
		for (int i = 0; i < QueueDelayLimit.MAX_KINDS + 100; i++) {
			limit.onSample("/orders/" + i, 0, SERVICE_NANOS + i, 10, false);
		}
		assertThat(limit.noLoadNanos()).isEqualTo(SERVICE_NANOS + QueueDelayLimit.MAX_KINDS);
	}

	@Test
	void aRetryStormWhosePlacesAreTakenAsCallersComeBackKeepsEightConnectionsBusyWithoutAQueue() {
		// 200 callers that retry at once, each refusal taking up to 60 ms (its turn): a free place
		// is taken when a caller comes back, not the moment it frees, so the requests in flight
		// rise and fall, and the luckiest request of an interval may have found a connection free
		// though most waited. What the limit keeps of a queue must still stay small.
		Saturated service = inARetryStorm(8);
		assertThat(service.lowestLimit).as(service.toString()).isGreaterThanOrEqualTo(8);
		assertThat(service.highestLimit).as(service.toString()).isLessThanOrEqualTo(24);
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(2 * SERVICE_NANOS);
		assertThat(service.quantile(0.99)).as(service.toString()).isLessThanOrEqualTo(3 * SERVICE_NANOS);
		assertThat(service.completedPerSecond()).as(service.toString()).isGreaterThan(8 * 49.0);
	}

	@Test
	void aRetryStormWhosePlacesAreTakenAsCallersComeBackKeepsOneConnectionAtOneOrTwo() {
		Saturated service = inARetryStorm(1);
		assertThat(service.highestLimit).as(service.toString()).isLessThanOrEqualTo(2);
		assertThat(service.quantile(0.50)).as(service.toString()).isLessThanOrEqualTo(SERVICE_NANOS * 11 / 10);
		assertThat(service.quantile(0.99)).as(service.toString()).isLessThanOrEqualTo(3 * SERVICE_NANOS);
		assertThat(service.completedPerSecond()).as(service.toString()).isGreaterThan(49.0);
	}

	/**
	 * A service of {@code connections} after twenty seconds of 200 callers that retry at once,
	 * each refusal taking up to 60 ms.
	 */
	private static Saturated inARetryStorm(int connections) {
		Saturated service = new Saturated(new QueueDelayLimit(), connections, SERVICE_NANOS);
		service.stormCallers = 200;
		service.refusalNanos = TimeUnit.MILLISECONDS.toNanos(30);
		return service.run(20 * SECOND);
	}

	@Test
	void aDroppedRequestHalvesTheLimit() {
		QueueDelayLimit limit = new QueueDelayLimit();
		limit.onSample(0, SERVICE_NANOS, 20, false);
		limit.onSample(QueueDelayLimit.INTERVAL_NANOS, SERVICE_NANOS, 20, true);
		assertThat(limit.getLimit()).isEqualTo(QueueDelayLimit.INITIAL_LIMIT / 2);
	}

	/**
	 * A service of {@code connections} connections, first come first served, each holding a
	 * request for the service time (give or take a quarter, so that the connections do not keep
	 * step), whose every free place under the limit is taken at once (by one of its callers, when
	 * they are counted), or, in a retry storm, by the next of its callers to come back.
	 * Records the latencies and the limit's range over the last half of each run.
	 */
	private static final class Saturated {

		final QueueDelayLimit limit;

		final int connections;

		long serviceNanos;

		/**
		 * A wait every request meets besides its service time, whatever the concurrency (for the
		 * CPU, which a flood of refusals takes), from half of it to one and a half.
		 */
		long cpuWaitNanos;

		/**
		 * Whether the wait for the CPU changes from one tenth of a second to the next (drawn
		 * from none to twice {@link #cpuWaitNanos}), as a flood's does, rather than from one
		 * request to the next.
		 */
		boolean cpuWaitInBursts;

		private long cpuLevelUntil;

		private long cpuLevel;

		/**
		 * Until when the service is cold (a JVM that has just started: classes loaded, code not
		 * compiled yet), each request taking {@link #coldFactor} times its service time.
		 */
		long coldUntil;

		int coldFactor = 1;

		/** How many callers send a request the moment they have an answer; unbounded by default. */
		int callers = Integer.MAX_VALUE;

		/**
		 * Callers of a retry storm, or 0 for none: each sends its next request the moment it has
		 * an answer, and a caller refused comes back after its refusal's wait, so that the places
		 * under the limit are not all taken at once but as callers come back.
		 */
		int stormCallers;

		/** How long a refused storm caller takes to come back: from none to twice this. */
		long refusalNanos;

		private final PriorityQueue<Long> arrivals = new PriorityQueue<>();

		/** The kind the service's requests are sampled as. */
		String kind;

		/** How often a request of another kind, answered in half a millisecond, is sampled; 0 for never. */
		long fastRequestEvery;

		private long nextFastRequest;

		private long now;

		private int inflight;

		private final Queue<long[]> waiting = new ArrayDeque<>();

		private final PriorityQueue<long[]> holding = new PriorityQueue<>((a, b) -> Long.compare(a[2], b[2]));

		private final List<Long> latencies = new ArrayList<>();

		private final Random random = new Random(41);

		private long recordedFrom;

		private long recordedNanos;

		int lowestLimit;

		int highestLimit;

		Saturated(QueueDelayLimit limit, int connections, long serviceNanos) {
			this.limit = limit;
			this.connections = connections;
			this.serviceNanos = serviceNanos;
		}

		Saturated run(long nanos) {
			long end = this.now + nanos;
			this.recordedFrom = this.now + nanos / 2;
			this.recordedNanos = end - this.recordedFrom;
			this.latencies.clear();
			this.lowestLimit = Integer.MAX_VALUE;
			this.highestLimit = 0;
			if (this.stormCallers > 0 && this.arrivals.isEmpty() && this.holding.isEmpty()) {
				for (int i = 0; i < this.stormCallers; i++) {
					this.arrivals.add(this.now + i * 1000L);
				}
			}
			else if (this.stormCallers == 0) {
				admit();
			}
			while (this.now < end) {
				Long arrival = this.arrivals.peek();
				long[] first = this.holding.peek();
				if (arrival != null && (first == null || arrival <= first[2])) {
					this.arrivals.poll();
					this.now = arrival;
					if (this.inflight < this.limit.getLimit()) {
						start();
					}
					else {
						// At least a microsecond: a caller refused comes back later, never at the same instant.
						this.arrivals.add(this.now + Math.max(1000, (long) (this.random.nextDouble() * 2 * this.refusalNanos)));
					}
					continue;
				}
				// {start, inflight at start, end of its hold}
				long[] done = this.holding.poll();
				this.now = done[2];
				this.inflight--;
				long latency = this.now - done[0];
				this.limit.onSample(this.kind, done[0], latency, (int) done[1], false);
				if (this.fastRequestEvery > 0 && this.now >= this.nextFastRequest) {
					this.nextFastRequest = this.now + this.fastRequestEvery;
					this.limit.onSample("/demo/capacity", this.now, TimeUnit.MICROSECONDS.toNanos(500), this.inflight, false);
				}
				if (this.now >= this.recordedFrom) {
					this.latencies.add(latency);
					this.lowestLimit = Math.min(this.lowestLimit, this.limit.getLimit());
					this.highestLimit = Math.max(this.highestLimit, this.limit.getLimit());
				}
				long[] next = this.waiting.poll();
				if (next != null) {
					next[2] = this.now + service();
					this.holding.add(next);
				}
				if (this.stormCallers > 0) {
					this.arrivals.add(this.now);
				}
				else {
					admit();
				}
			}
			return this;
		}

		private void admit() {
			while (this.inflight < Math.min(this.limit.getLimit(), this.callers)) {
				start();
			}
		}

		private void start() {
			this.inflight++;
			long[] request = { this.now, this.inflight, 0 };
			if (this.holding.size() < this.connections) {
				request[2] = this.now + service();
				this.holding.add(request);
			}
			else {
				this.waiting.add(request);
			}
		}

		private long service() {
			long service = this.serviceNanos * 3 / 4 + (long) (this.random.nextDouble() * this.serviceNanos / 2);
			if (this.now < this.coldUntil) {
				service *= this.coldFactor;
			}
			if (!this.cpuWaitInBursts) {
				return service + this.cpuWaitNanos / 2 + (long) (this.random.nextDouble() * this.cpuWaitNanos);
			}
			if (this.now >= this.cpuLevelUntil) {
				this.cpuLevelUntil = this.now + QueueDelayLimit.INTERVAL_NANOS;
				this.cpuLevel = (long) (this.random.nextDouble() * 2 * this.cpuWaitNanos);
			}
			return service + this.cpuLevel * 3 / 4 + (long) (this.random.nextDouble() * this.cpuLevel / 2);
		}

		long quantile(double quantile) {
			List<Long> sorted = new ArrayList<>(this.latencies);
			Collections.sort(sorted);
			return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1));
		}

		@Override
		public String toString() {
			return "limit " + this.lowestLimit + " to " + this.highestLimit + ", p50 " + quantile(0.5) / 1000 + " us, p99 "
					+ quantile(0.99) / 1000 + " us, " + completedPerSecond() + "/s, no-load " + this.limit.noLoadNanos() / 1000 + " us";
		}

		double completedPerSecond() {
			return this.latencies.size() * (double) SECOND / this.recordedNanos;
		}

	}

}
