package dev.degradation.web;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.overload.Admission;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever deadline and priority headers callers send, in any order, the shed level stays where
 * load alone puts it: on a service whose places are never all taken, no sequence of requests
 * raises it. The requests go through the decision both web stacks ask, with the engine's real
 * overload signal.
 */
class HostileHeaderLevelTests {

	private static final String DEADLINE = "x-envoy-expected-rq-timeout-ms";

	private static final String PRIORITY = "X-Degradation-Priority";

	private static final String MANIFEST = """
			overload:
			  concurrency_limit: 4
			  max_queue_ms: 50
			  hysteresis_seconds: 1
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /api/track, method: POST, fallback: drop }
			  enhanced:
			    priority: 5
			    routes:
			      - { path: "/api/items/{id}", method: GET, fallback: drop }
			""";

	@Property(tries = 200)
	void noSequenceOfHeadersRaisesTheLevelOfAServiceWithRoom(@ForAll("requests") @Size(max = 60) List<Sent> requests,
			@ForAll @IntRange(min = 0, max = 3) int heldByOthers) {
		TestClock clock = TestClock.at(Instant.parse("2026-12-03T10:00:00Z"));
		DegradationManifest manifest = ManifestLoader.standard()
			.load("hostile.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));
		OverloadSignal overload = new OverloadSignal(manifest, System::nanoTime, clock);
		DegradationEngine engine = new DegradationEngine(manifest, clock, List.of(overload), Runnable::run);
		RequestDecider decider = new RequestDecider(engine, RouteTable.compile(manifest), "/actuator", overload,
				DEADLINE, Duration.ofSeconds(30));
		decider.setPriorityHeader(PRIORITY);
		Admission admission = overload.admission();
		// Places taken by other, well-behaved requests: fewer than the limit, so the service has room.
		List<Admission.Admitted> held = new ArrayList<>();
		for (int i = 0; i < heldByOthers; i++) {
			held.add((Admission.Admitted) admission.decide(admission.coreRank(), dev.degradation.overload.Deadline.NONE));
		}
		for (Sent sent : requests) {
			Decision decision = decider.decide(sent);
			if (decision instanceof Decision.Proceed proceed && proceed.admitted() != null) {
				proceed.admitted().onSuccess();
			}
			assertThat(decision).as("%s with %d held", sent, heldByOthers).isNotInstanceOf(Decision.Wait.class);
			if (sent.evaluateAfter()) {
				clock.advance(Duration.ofMillis(500));
				assertThat(engine.evaluate().level()).as("after %s with %d held: %s", sent, heldByOthers,
						engine.state().reason()).isZero();
			}
		}
		clock.advance(Duration.ofSeconds(1));
		assertThat(engine.evaluate().level()).isZero();
		held.forEach(Admission.Admitted::onSuccess);
		assertThat(admission.inflight()).isZero();
	}

	@Provide
	Arbitrary<List<Sent>> requests() {
		Arbitrary<String> route = Arbitraries.of("GET /api/core", "GET /api/items/7", "POST /api/track",
				"GET /actuator/degradation");
		Arbitrary<String> deadline = Arbitraries.oneOf(Arbitraries.of("0", "-1", "1", "00", "-0", "1e3", "0x10",
				"9223372036854775807", "-9223372036854775808", "99999999999999999999", "3153600000000", " 5", "",
				"NaN"), Arbitraries.longs().map(String::valueOf), Arbitraries.strings().ofMaxLength(24)).injectNull(0.3);
		Arbitrary<String> priority = Arbitraries.oneOf(Arbitraries.of("core", "1", "0", "5", "-1", "1000",
				"2147483648", "CORE", "garbage", ""), Arbitraries.integers().map(String::valueOf),
				Arbitraries.strings().ofMaxLength(16)).injectNull(0.3);
		return Combinators.combine(route, deadline, priority, Arbitraries.of(true, false))
			.as((line, d, p, evaluate) -> new Sent(line.substring(0, line.indexOf(' ')),
					line.substring(line.indexOf(' ') + 1), d, p, evaluate))
			.list();
	}

	/**
	 * One request a caller sent: its method, path, deadline and priority headers, and whether the
	 * engine evaluates after it.
	 */
	record Sent(String method, String path, @Nullable String deadline, @Nullable String priority,
			boolean evaluateAfter) implements RequestView {

		@Override
		public PathContainer pathWithinApplication() {
			return PathContainer.parsePath(this.path);
		}

		@Override
		public String rawPath() {
			return this.path;
		}

		@Override
		public @Nullable String rawQuery() {
			return null;
		}

		@Override
		public @Nullable String header(String name) {
			if (name.equalsIgnoreCase(DEADLINE)) {
				return this.deadline;
			}
			return name.equalsIgnoreCase(PRIORITY) ? this.priority : null;
		}

	}

}
