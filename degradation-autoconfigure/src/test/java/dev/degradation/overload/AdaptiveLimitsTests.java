package dev.degradation.overload;

import java.util.concurrent.TimeUnit;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adaptive limit under a sustained overload of a service that does one request at a time
 * (seed 000's: 20 ms a request): every admitted request waits behind all the others, so its
 * latency is the limit times the service time. The limit must settle near the service's real
 * concurrency and stay there, not drift up with Vegas' default probe.
 */
class AdaptiveLimitsTests {

	private static final long SERVICE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	@Test
	void underASustainedOverloadTheLimitSettlesAFewRequestsAboveTheServicesConcurrencyAndStays() {
		Limit limit = AdaptiveLimits.standard();
		int highest = overload(limit, 1500);
		assertThat(limit.getLimit()).isBetween(AdaptiveLimits.ALPHA, AdaptiveLimits.BETA + 2);
		assertThat(highest).as("after the first decline from the initial limit").isLessThanOrEqualTo(AdaptiveLimits.BETA + 2);
	}

	@Test
	void vegasAtItsDefaultsDriftsUpUnderTheSameOverload() {
		// What the parameters above are for: the default probe takes the queued latency for the
		// no-load one, and the limit climbs.
		Limit limit = VegasLimit.newBuilder().initialLimit(AdaptiveLimits.INITIAL_LIMIT).build();
		overload(limit, 1500);
		assertThat(limit.getLimit()).isGreaterThan(2 * (AdaptiveLimits.BETA + 2));
	}

	/**
	 * A quiet start (the no-load latency is seen), then {@code samples} requests of a saturated
	 * one-at-a-time service.
	 * @return the highest limit after the limit first came down to its settled range
	 */
	private static int overload(Limit limit, int samples) {
		long now = 0;
		for (int i = 0; i < 50; i++) {
			limit.onSample(now, SERVICE_NANOS, 1, false);
			now += SERVICE_NANOS;
		}
		int highest = 0;
		boolean settled = false;
		for (int i = 0; i < samples; i++) {
			int current = limit.getLimit();
			limit.onSample(now, current * SERVICE_NANOS, current, false);
			now += SERVICE_NANOS;
			settled = settled || limit.getLimit() <= AdaptiveLimits.BETA + 2;
			if (settled) {
				highest = Math.max(highest, limit.getLimit());
			}
		}
		return highest;
	}

}
