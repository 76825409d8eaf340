package dev.degradation.web;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.http.server.PathContainer;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.overload.Admission;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request decision without a server, with a test clock: how an admitted request's end is
 * judged for the limit (only the service's own behaviour is a sample), and the bounds of a
 * caller's body.
 */
class RequestDeciderTests {

	private static final String DEADLINE = "x-envoy-expected-rq-timeout-ms";

	private static final String MANIFEST = """
			overload:
			  concurrency_limit: adaptive
			  max_queue_ms: 50
			  hysteresis_seconds: 1
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /api/track, method: POST, fallback: drop }
			""";

	private final AtomicLong nanos = new AtomicLong(1_000_000);

	private final TestClock clock = TestClock.at(Instant.parse("2026-12-04T10:00:00Z"));

	private final OverloadSignal overload;

	private final DegradationEngine engine;

	private final RequestDecider decider;

	RequestDeciderTests() {
		DegradationManifest manifest = ManifestLoader.standard()
			.load("adaptive.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));
		this.overload = new OverloadSignal(manifest, this.nanos::get, this.clock);
		this.engine = new DegradationEngine(manifest, this.clock, List.of(this.overload), Runnable::run);
		this.decider = new RequestDecider(this.engine, RouteTable.compile(manifest), "/actuator", this.overload,
				DEADLINE, Duration.ofSeconds(30));
	}

	/**
	 * One caller, one request at a time, each with a deadline of 1 to 10 ms and answered 200 a
	 * little after it (each taking 1 to 20 ms): no sample, no drop; the limit and the level stay
	 * where the same requests without the header leave them.
	 */
	@Property(tries = 50)
	void oneCallersShortDeadlinesLeaveTheLimitAndTheLevelWhereHonestTrafficWould(
			@ForAll @Size(min = 20, max = 120) List<@IntRange(min = 1, max = 10) Integer> deadlines,
			@ForAll @IntRange(min = 0, max = 10) int overrun) {
		RequestDeciderTests honest = new RequestDeciderTests();
		for (int deadline : deadlines) {
			long took = TimeUnit.MILLISECONDS.toNanos(deadline + overrun) + 1;
			served(Integer.toString(deadline), took, 200);
			honest.served(null, took, 200);
			if (deadline % 3 == 0) {
				this.clock.advance(Duration.ofMillis(500));
				assertThat(this.engine.evaluate().level()).isZero();
			}
		}
		Admission admission = admission();
		assertThat(admission.limit()).isEqualTo(honest.admission().limit()).isEqualTo(20);
		assertThat(admission.dropped()).isZero();
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.engine.evaluate().level()).isZero();
		assertThat(admission.inflight()).isZero();
	}

	@Test
	void aRequestEndedAfterItsCallersDeadlineIsIgnoredAndOneInTimeIsASample() {
		served("5", TimeUnit.MILLISECONDS.toNanos(6), 200);
		assertThat(admission().ignored()).isEqualTo(1);
		assertThat(admission().succeeded()).isZero();
		served("5", TimeUnit.MILLISECONDS.toNanos(4), 200);
		served(null, TimeUnit.MILLISECONDS.toNanos(40), 200);
		assertThat(admission().succeeded()).isEqualTo(2);
		assertThat(admission().dropped()).isZero();
	}

	@Test
	void aServedRequestLongerThanTheLongestTrustedDeadlineIsADropWhateverItsCallerSent() {
		served("1", TimeUnit.SECONDS.toNanos(31), 200);
		served(null, TimeUnit.SECONDS.toNanos(31), 200);
		assertThat(admission().dropped()).isEqualTo(2);
	}

	@Test
	void aClientErrorAServerErrorAFailureAndAFallbackAreNoSample() {
		served(null, TimeUnit.SECONDS.toNanos(31), 400);
		served(null, TimeUnit.SECONDS.toNanos(31), 408);
		served(null, TimeUnit.MILLISECONDS.toNanos(1), 404);
		served(null, TimeUnit.MILLISECONDS.toNanos(1), 503);
		Decision.Proceed failed = admitted(null);
		this.decider.end(failed, true, 200, false, null);
		Decision.Proceed fellBack = admitted(null);
		this.decider.end(fellBack, false, 200, true, null);
		assertThat(admission().ignored()).isEqualTo(6);
		assertThat(admission().succeeded() + admission().dropped()).isZero();
		assertThat(admission().limit()).isEqualTo(20);
	}

	@Test
	void aBodyIsReadFirstUnderAdmissionUpToTheReadAheadBoundAndNeverAForm() {
		this.decider.setBodyLimits(Duration.ofSeconds(2), 1024);
		assertThat(this.decider.readsBodyFirst(new Get(null), 1024, "application/json")).isTrue();
		assertThat(this.decider.readsBodyFirst(new Get(null), 10, null)).isTrue();
		assertThat(this.decider.readsBodyFirst(new Get(null), 1025, "application/json")).as("larger: read after").isFalse();
		assertThat(this.decider.readsBodyFirst(new Get(null), -1, "application/json")).as("chunked: read after").isFalse();
		assertThat(this.decider.readsBodyFirst(new Get(null), 0, "application/json")).isFalse();
		assertThat(this.decider.readsBodyFirst(new Get(null), 10, "Application/X-WWW-Form-Urlencoded; charset=UTF-8")).isFalse();
		assertThat(this.decider.readsBodyFirst(new Get(null), 10, "multipart/form-data; boundary=x")).isFalse();
		assertThat(this.decider.bodyTimeoutNanos(new Get(null))).isEqualTo(TimeUnit.SECONDS.toNanos(2));
		assertThat(this.decider.bodyTimeoutNanos(new Get("500"))).as("never past the caller's deadline")
			.isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
		assertThat(this.decider.bodyTimeoutNanos(new Get("5000"))).isEqualTo(TimeUnit.SECONDS.toNanos(2));
		RequestDecider withoutAdmission = new RequestDecider(this.engine, RouteTable.compile(this.engine.manifest()),
				null, null, DEADLINE, Duration.ofSeconds(30));
		assertThat(withoutAdmission.readsBodyFirst(new Get(null), 10, "application/json")).isFalse();
	}

	@Test
	void aBodyReadAfterAdmissionMustArriveWithinTheBodyTimeoutAndTheCallersDeadline() {
		this.decider.setBodyLimits(Duration.ofSeconds(2), 0);
		Decision.Proceed undeclared = admitted(null);
		assertThat(this.decider.bodyTimeLimitNanos(undeclared)).isEqualTo(TimeUnit.SECONDS.toNanos(2));
		Decision.Proceed shorter = admitted("500");
		assertThat(this.decider.bodyTimeLimitNanos(shorter)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
		Decision.Proceed longer = admitted("5000");
		assertThat(this.decider.bodyTimeLimitNanos(longer)).isEqualTo(TimeUnit.SECONDS.toNanos(2));
		List.of(undeclared, shorter, longer).forEach((proceed) -> this.decider.end(proceed, false, 200, false, null));
	}

	private Admission admission() {
		Admission admission = this.overload.admission();
		assertThat(admission).isNotNull();
		return admission;
	}

	private void served(@Nullable String deadline, long took, int status) {
		Decision.Proceed proceed = admitted(deadline);
		this.nanos.addAndGet(took);
		this.decider.end(proceed, false, status, false, null);
	}

	private Decision.Proceed admitted(@Nullable String deadline) {
		Decision decision = this.decider.decide(new Get(deadline));
		assertThat(decision).isInstanceOf(Decision.Proceed.class);
		Decision.Proceed proceed = (Decision.Proceed) decision;
		assertThat(proceed.admitted()).isNotNull();
		return proceed;
	}

	/**
	 * A core request with a deadline header or none.
	 */
	private record Get(@Nullable String deadline) implements RequestView {

		@Override
		public String method() {
			return "GET";
		}

		@Override
		public PathContainer pathWithinApplication() {
			return PathContainer.parsePath("/api/checkout");
		}

		@Override
		public String rawPath() {
			return "/api/checkout";
		}

		@Override
		public @Nullable String rawQuery() {
			return null;
		}

		@Override
		public @Nullable String header(String name) {
			return name.equalsIgnoreCase(DEADLINE) ? this.deadline : null;
		}

	}

}
