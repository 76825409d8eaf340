package dev.degradation.overload;

import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;

import dev.degradation.client.RetryAfter;
import dev.degradation.web.Decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Every numeric header the starter reads (the caller's deadline, the passed priority, a
 * dependency's {@code Retry-After}) goes through one reading: over the whole {@code int} and
 * {@code long} range, beyond it, and in malformed forms, each lands in its own range, and none
 * yields a value the code keeps for itself.
 */
class HeaderNumberTests {

	private static final Duration MAX_DEADLINE = Duration.ofSeconds(30);

	private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T10:00:00Z"), ZoneOffset.UTC);

	@Property(tries = 2000)
	void everyLongIsReadIntoTheRangeAsItsNearestValue(@ForAll long number, @ForAll long a, @ForAll long b,
			@ForAll("spaces") String before, @ForAll("spaces") String after) {
		long min = Math.min(a, b);
		long max = Math.max(a, b);
		String header = before + number + after;
		assertThat(HeaderNumber.readable(header)).isTrue();
		assertThat(HeaderNumber.clamped(header, min, max)).isEqualTo(Math.max(min, Math.min(max, number)));
		assertThat(HeaderNumber.clamped(header, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(number);
	}

	@Property(tries = 1000)
	void aNumberBeyondALongIsTheNearestEnd(@ForAll("huge") BigInteger number, @ForAll int a, @ForAll int b) {
		long min = Math.min(a, b);
		long max = Math.max(a, b);
		String header = number.toString();
		assertThat(HeaderNumber.readable(header)).isTrue();
		assertThat(HeaderNumber.clamped(header, min, max)).isEqualTo((number.signum() < 0) ? min : max);
		assertThat(HeaderNumber.clamped("+" + number.abs(), min, max)).isEqualTo(max);
	}

	@Property(tries = 2000)
	void aMalformedValueIsUnreadableByEveryHeader(@ForAll("malformed") String header) {
		assertThat(HeaderNumber.readable(header)).as("%s", header).isFalse();
		assertThatIllegalArgumentException().isThrownBy(() -> HeaderNumber.clamped(header, 0, 10));
		assertThat(Deadline.remainingNanos(header, MAX_DEADLINE)).isEqualTo(Deadline.NONE);
		assertThat(PassedPriority.read(header)).isEqualTo(PassedPriority.CORE);
		for (int declared : new int[] { 1, 1000, PassedPriority.CORE }) {
			assertThat(PassedPriority.lower(declared, header)).isEqualTo(declared);
		}
		if (!header.contains("GMT")) {
			assertThat(RetryAfter.parse(header, CLOCK)).isNull();
		}
	}

	@Property(tries = 3000)
	void aDeadlineIsPassedOrATimeUpToTheMaximumAndNeverNone(@ForAll("anyHeader") String header) {
		long nanos = Deadline.remainingNanos(header, MAX_DEADLINE);
		if (HeaderNumber.readable(header)) {
			assertThat(nanos).isBetween(Deadline.PASSED, MAX_DEADLINE.toNanos()).isNotEqualTo(Deadline.NONE);
		}
		else {
			assertThat(nanos).isEqualTo(Deadline.NONE);
		}
		Duration remaining = Deadline.remaining(header, MAX_DEADLINE);
		assertThat(remaining).isEqualTo((nanos == Deadline.NONE) ? null : Duration.ofNanos(nanos));
	}

	@Property(tries = 3000)
	void aPassedPriorityNeverRaisesTheDeclaredOneNorReachesNotPassed(@ForAll("anyHeader") String header,
			@ForAll @IntRange(min = 1, max = 1000) int tier) {
		int read = PassedPriority.read(header);
		assertThat(read).isBetween(PassedPriority.LOWEST, PassedPriority.CORE).isNotEqualTo(Decision.Proceed.NOT_PASSED);
		for (int declared : new int[] { tier, PassedPriority.CORE }) {
			int served = PassedPriority.lower(declared, header);
			assertThat(served).isLessThanOrEqualTo(declared).isNotEqualTo(Decision.Proceed.NOT_PASSED);
			// What travels on reads back as itself: the next service sees no higher priority.
			assertThat(PassedPriority.read(PassedPriority.header(served))).isEqualTo(served);
		}
	}

	@Property(tries = 2000)
	void aRetryAfterIsAWaitOfNoLessThanZero(@ForAll("anyHeader") String header) {
		Duration wait = RetryAfter.parse(header, CLOCK);
		if (wait != null) {
			assertThat(wait.isNegative()).as("%s", header).isFalse();
		}
	}

	@Example
	void theEdgesOfEveryHeaderLandInTheirRanges() {
		assertThat(PassedPriority.read("-2147483648")).isEqualTo(PassedPriority.LOWEST);
		assertThat(PassedPriority.read("-9223372036854775808")).isEqualTo(PassedPriority.LOWEST);
		assertThat(PassedPriority.read("-1")).isEqualTo(PassedPriority.LOWEST);
		assertThat(PassedPriority.read("2147483647")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.read("9223372036854775807")).isEqualTo(PassedPriority.CORE);
		assertThat(PassedPriority.lower(1, "-2147483648")).isEqualTo(PassedPriority.LOWEST);
		assertThat(Deadline.remainingNanos("-9223372036854775808", MAX_DEADLINE)).isEqualTo(Deadline.PASSED);
		assertThat(Deadline.remainingNanos("9223372036854775807", MAX_DEADLINE)).isEqualTo(MAX_DEADLINE.toNanos());
		assertThat(Deadline.remainingNanos("-0", MAX_DEADLINE)).isEqualTo(Deadline.PASSED);
		assertThat(Deadline.remainingNanos("+5", MAX_DEADLINE)).isEqualTo(Duration.ofMillis(5).toNanos());
		assertThat(RetryAfter.parse("-5", CLOCK)).isNull();
		assertThat(RetryAfter.parse("99999999999999999999999", CLOCK)).isEqualTo(Duration.ofSeconds(Long.MAX_VALUE));
	}

	@Provide
	Arbitrary<String> spaces() {
		return Arbitraries.strings().withChars(' ', '\t').ofMaxLength(3);
	}

	@Provide
	Arbitrary<BigInteger> huge() {
		Arbitrary<BigInteger> beyond = Arbitraries.bigIntegers()
			.between(BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE), BigInteger.TEN.pow(400));
		return Arbitraries.oneOf(beyond, beyond.map(BigInteger::negate));
	}

	@Provide
	Arbitrary<String> malformed() {
		Arbitrary<Long> number = Arbitraries.longs();
		return Arbitraries.oneOf(
				Arbitraries.of("", " ", "\t", "+", "-", "+-1", "--1", "++1", "- 1", "1 2", "1,2", "5, 6", "0x10",
						"0X1F", "1e3", "1E3", "1.5", ".5", "5.", "10ms", "10s", "1_000", "NaN", "Infinity", "core",
						"CORE", "null", "\u0000", "1\u0000", "\u00a01", "1\u00a0", "\u0661\u0660", "\uff11\uff12",
						"\u0966", "1\r\n", "\n1", "1\u000b", "\u2007" + "5"),
				number.map((n) -> "0x" + Long.toHexString(n)), number.map((n) -> n + "ms"),
				number.map((n) -> n + "," + n), number.map((n) -> n + " " + n), number.map((n) -> n + ".0"),
				number.map((n) -> n + "\u0660"), number.map((n) -> "\u00a0" + n),
				Arbitraries.strings().withChars('a', 'z').ofMinLength(1).ofMaxLength(20));
	}

	@Provide
	Arbitrary<@Nullable String> anyHeader() {
		return Arbitraries.oneOf(malformed(), Arbitraries.longs().map(String::valueOf),
				Arbitraries.integers().map(String::valueOf), huge().map(BigInteger::toString),
				Arbitraries.of("-2147483648", "2147483647", "-1", "0", "-9223372036854775808", "9223372036854775807"),
				Arbitraries.strings().ofMaxLength(30))
			.injectNull(0.1);
	}

}
