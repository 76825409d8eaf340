package dev.degradation.overload;

import java.time.Duration;

import com.netflix.concurrency.limits.limit.FixedLimit;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.OverloadSignal;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one rule of a priority passed between services: it is read as the manifest writes it, it
 * ranks as the callee's highest tier at or below it, and it can only lower a request's rank,
 * whatever a caller sends.
 */
class PassedPriorityTests {

	/** A callee with tiers of priority 1, 5 and 10: ranks 0, 1 and 2; core is rank 3. */
	private final OverloadSignal.Active active = new OverloadSignal.Active(
			new Admission(FixedLimit.of(8), 3, Duration.ZERO, System::nanoTime), new int[] { 1, 5, 10 }, "1", 503);

	private final int core = this.active.admission().coreRank();

	@Test
	void aPriorityIsReadAsTheManifestWritesIt() {
		assertThat(PassedPriority.read("1")).isEqualTo(1);
		assertThat(PassedPriority.read(" 5 ")).isEqualTo(5);
		assertThat(PassedPriority.read("0")).isZero();
		assertThat(PassedPriority.read("-3")).as("below every tier").isEqualTo(PassedPriority.LOWEST);
	}

	@Test
	void coreAbsentAndUnreadableValuesAreCore() {
		assertThat(PassedPriority.read(null)).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("core")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("core ")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("CORE")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("   ")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("1.5")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("1,2")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("high")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("99999999999999999999")).as("beyond a long").isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("9999999999")).as("beyond an int").isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("-9999999999")).as("below an int").isEqualTo(PassedPriority.LOWEST);
		assertThat(PassedPriority.read("1".repeat(100_000))).as("very long").isEqualTo(PassedPriority.CORE);
	}

	@Test
	void aPassedPriorityOnlyLowersTheDeclaredOne() {
		assertThat(PassedPriority.lower(5, "1")).isEqualTo(1);
		assertThat(PassedPriority.lower(5, "10")).isEqualTo(5);
		assertThat(PassedPriority.lower(5, "core")).isEqualTo(5);
		assertThat(PassedPriority.lower(5, "2147483647")).isEqualTo(5);
		assertThat(PassedPriority.lower(5, null)).isEqualTo(5);
		assertThat(PassedPriority.lower(PassedPriority.CORE, "1")).isEqualTo(1);
		assertThat(PassedPriority.lower(PassedPriority.CORE, "core")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.lower(PassedPriority.CORE, "garbage")).isEqualTo(PassedPriority.CORE);
	}

	@Test
	void aPriorityIsPassedOnAsTheManifestWritesIt() {
		assertThat(PassedPriority.header(1)).isEqualTo("1");
		assertThat(PassedPriority.header(PassedPriority.LOWEST)).isEqualTo("0");
		assertThat(PassedPriority.header(PassedPriority.CORE)).isEqualTo("core");
		for (int priority : new int[] { PassedPriority.LOWEST, 1, 1000, PassedPriority.CORE }) {
			assertThat(PassedPriority.read(PassedPriority.header(priority))).isEqualTo(priority);
		}
	}

	@Test
	void aPassedPriorityRanksAsTheHighestTierAtOrBelowIt() {
		assertThat(this.active.lowered(this.core, PassedPriority.read("1"))).isZero();
		assertThat(this.active.lowered(this.core, PassedPriority.read("4"))).isZero();
		assertThat(this.active.lowered(this.core, PassedPriority.read("5"))).isEqualTo(1);
		assertThat(this.active.lowered(this.core, PassedPriority.read("9"))).isEqualTo(1);
		assertThat(this.active.lowered(this.core, PassedPriority.read("10"))).isEqualTo(2);
		assertThat(this.active.lowered(this.core, PassedPriority.read("1000"))).as("degradable in the caller")
			.isEqualTo(2);
		assertThat(this.active.lowered(this.core, PassedPriority.read("0"))).as("below every tier").isZero();
		assertThat(this.active.lowered(this.core, PassedPriority.read("-2147483648"))).isZero();
	}

	@Test
	void aPassedPriorityNeverRaisesARank() {
		String[] hostile = { "core", "core ", " core", "CORE", "", "1000", "2147483647", "2147483648",
				"99999999999999999999", "-1", "-2147483649", "NaN", "+10", "0x10", "1e3", "\u0000", "١٠",
				"x".repeat(100_000), null };
		for (int rank = 0; rank <= this.core; rank++) {
			for (String header : hostile) {
				assertThat(this.active.lowered(rank, PassedPriority.read(header))).as("rank %d, header %s", rank, header)
					.isLessThanOrEqualTo(rank)
					.isGreaterThanOrEqualTo(0);
			}
			assertThat(this.active.lowered(rank, PassedPriority.read("core"))).isEqualTo(rank);
			assertThat(this.active.lowered(rank, PassedPriority.read(null))).isEqualTo(rank);
			assertThat(this.active.lowered(rank, PassedPriority.read("garbage"))).isEqualTo(rank);
		}
	}

	@Test
	void aCalleeWithoutTiersRanksEveryRequestAsCore() {
		OverloadSignal.Active coreOnly = new OverloadSignal.Active(
				new Admission(FixedLimit.of(8), 0, Duration.ZERO, System::nanoTime), new int[0], "1", 503);
		assertThat(coreOnly.lowered(coreOnly.admission().coreRank(), PassedPriority.read("1")))
			.isEqualTo(coreOnly.admission().coreRank());
	}

}
