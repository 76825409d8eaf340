package dev.degradation.parts;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.RequestSimulation;
import dev.degradation.fixture.TestClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link Gathering}: parts that answer, fail fast, hang, or find the executor full are
 * each settled within their budget, with their last good value or as unknown, and named.
 */
class GatheringTests {

	private final List<String> recorded = new ArrayList<>();

	private final PartGatherer gatherer = new PartGatherer(PartGatherer.boundedExecutor(2, 0),
			(part, state) -> record(part + "=" + state), Clock.systemUTC(), (gathering) -> {
			});

	private final CountDownLatch never = new CountDownLatch(1);

	@AfterEach
	void close() {
		this.never.countDown();
		this.gatherer.close();
	}

	@Test
	void freshPartsLeaveNothingToName() {
		Gathering parts = this.gatherer.gather(Duration.ofSeconds(2));
		Part<String> reviews = parts.optional("reviews", Duration.ofSeconds(1), () -> "good");
		assertThat(reviews.value()).isEqualTo("good");
		assertThat(reviews.state()).isEqualTo(PartState.FRESH);
		assertThat(parts.degradedParts()).isNull();
		assertThat(this.recorded).containsExactly("reviews=FRESH");
	}

	@Test
	void aPartThatFailsFastIsMissingAtOnce() {
		Gathering parts = this.gatherer.gather(Duration.ofSeconds(5));
		Instant start = Instant.now();
		Part<String> reviews = parts.optional("reviews", Duration.ofSeconds(5), () -> {
			throw new IllegalStateException("HTTP 500");
		});
		assertThat(reviews.value()).isNull();
		assertThat(reviews.state()).isEqualTo(PartState.MISSING);
		assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(1));
		assertThat(parts.degradedParts()).isEqualTo("reviews");
	}

	@Test
	void aHangingPartIsSettledAtItsBudgetAndItsCallInterrupted() {
		AtomicBoolean interrupted = new AtomicBoolean();
		Gathering parts = this.gatherer.gather(Duration.ofSeconds(5));
		Instant start = Instant.now();
		Part<String> recommendations = parts.optional("recommendations", Duration.ofMillis(200), () -> {
			try {
				this.never.await();
				return "late";
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
				throw ex;
			}
		});
		assertThat(recommendations.state()).isEqualTo(PartState.MISSING);
		Duration took = Duration.between(start, Instant.now());
		assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(190)).isLessThan(Duration.ofMillis(1200));
		await().atMost(Duration.ofSeconds(2)).untilTrue(interrupted);
		assertThat(parts.degradedParts()).isEqualTo("recommendations");
	}

	@Test
	void theAnswersDeadlineBoundsEveryPartWhateverItsBudget() {
		Gathering parts = this.gatherer.gather(Duration.ofMillis(200));
		Instant start = Instant.now();
		Part<String> slow = parts.optional("slow", Duration.ofSeconds(10), () -> {
			this.never.await(10, TimeUnit.SECONDS);
			return "late";
		});
		assertThat(slow.state()).isEqualTo(PartState.MISSING);
		assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofMillis(1200));
	}

	@Test
	void aFailingPartWithALastGoodValueIsStaleWithItsAge() {
		LastGood<String, String> lastReviews = LastGood.of(10, Duration.ofMinutes(1));
		Gathering first = this.gatherer.gather(Duration.ofSeconds(2));
		assertThat(first.optional("reviews", Duration.ofSeconds(1), () -> "five stars", lastReviews, "p-1").value())
			.isEqualTo("five stars");
		Gathering second = this.gatherer.gather(Duration.ofSeconds(2));
		Part<String> reviews = second.optional("reviews", Duration.ofSeconds(1), () -> {
			throw new IllegalStateException("down");
		}, lastReviews, "p-1");
		Part<String> other = second.optional("reviews-of-another", Duration.ofSeconds(1), () -> {
			throw new IllegalStateException("down");
		}, lastReviews, "p-2");
		assertThat(reviews.value()).isEqualTo("five stars");
		assertThat(reviews.state()).isEqualTo(PartState.STALE);
		assertThat(reviews.age()).isNotNull().isLessThan(Duration.ofSeconds(5));
		assertThat(other.state()).isEqualTo(PartState.MISSING);
		assertThat(second.degradedParts()).isEqualTo("reviews;stale;age=0, reviews-of-another");
	}

	@Test
	void aSimulatedRequestsPartsFollowItsSimulationAndRememberNothing() {
		LastGood<String, String> lastReviews = LastGood.of(10, Duration.ofMinutes(1));
		RequestSimulation simulation = new RequestSimulation(0, Set.of("reviews-api"), "failed=reviews-api",
				"a-token-of-at-least-16-characters");
		Part<RequestSimulation> seen;
		Part<String> reviews;
		try (RequestSimulation.Held held = RequestSimulation.hold(simulation)) {
			Gathering parts = this.gatherer.gather(Duration.ofSeconds(2));
			seen = parts.optional("seen", Duration.ofSeconds(1), RequestSimulation::current);
			reviews = parts.optional("reviews", Duration.ofSeconds(1), () -> "degraded downstream", lastReviews, "p-1");
		}
		assertThat(seen.value()).isSameAs(simulation);
		assertThat(reviews.value()).isEqualTo("degraded downstream");
		assertThat(lastReviews.recall("p-1")).as("nothing gathered for a simulated request is remembered").isNull();
		Gathering live = this.gatherer.gather(Duration.ofSeconds(2));
		assertThat(live.optional("seen", Duration.ofSeconds(1), () -> String.valueOf(RequestSimulation.current()))
			.value()).isEqualTo("null");
	}

	@Test
	void aLastGoodValueOlderThanItsBoundIsUnknown() {
		Instant now = Instant.parse("2026-12-01T10:00:00Z");
		TestClock clock = TestClock.at(now);
		LastGood<String, String> lastReviews = LastGood.of(10, Duration.ofSeconds(60), clock);
		lastReviews.remember("p-1", "five stars");
		clock.advanceTo(now.plusSeconds(30));
		assertThat(lastReviews.recall("p-1")).isNotNull()
			.satisfies((aged) -> assertThat(aged.age()).isEqualTo(Duration.ofSeconds(30)));
		clock.advanceTo(now.plusSeconds(61));
		assertThat(lastReviews.recall("p-1")).isNull();
	}

	@Test
	void aPartThatFindsTheExecutorFullIsMissingAtOnce() {
		Gathering parts = this.gatherer.gather(Duration.ofSeconds(5));
		parts.optional("a", Duration.ofSeconds(5), () -> this.never.await(5, TimeUnit.SECONDS));
		parts.optional("b", Duration.ofSeconds(5), () -> this.never.await(5, TimeUnit.SECONDS));
		Instant start = Instant.now();
		Part<Object> third = parts.optional("c", Duration.ofSeconds(5), () -> "never runs");
		assertThat(third.state()).isEqualTo(PartState.MISSING);
		assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(1));
	}

	private synchronized void record(String outcome) {
		this.recorded.add(outcome);
	}

}
