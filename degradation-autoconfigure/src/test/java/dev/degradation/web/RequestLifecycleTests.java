package dev.degradation.web;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.http.server.PathContainer;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.overload.Admission;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.fixture.TestClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The specification of one request's way through the starter, without a server: every path a
 * request can take (let through unread, shed, admitted, waited, refused, answered after a refused
 * call, ended past its caller's deadline, a body too slow, an answer in turn), driven through a
 * plain {@link RequestView} by a stack of the test's own that records each step it is asked for.
 */
class RequestLifecycleTests {

	private static final String DEADLINE = "x-deadline-ms";

	private static final String MANIFEST = """
			dependencies:
			  recommendations-api: { base_url: "http://127.0.0.1:9" }
			overload:
			  concurrency_limit: 1
			  max_queue_ms: 100
			  retry_after_seconds: 3
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /api/track, method: POST, fallback: drop }
			  enhanced:
			    priority: 2
			    routes:
			      - path: /api/recommendations
			        method: GET
			        fallback: static
			        static_response: { "items": [], "source": "degraded" }
			        requires: [recommendations-api]
			""";

	private final AtomicLong nanos = new AtomicLong(1_000_000);

	private final TestClock clock = TestClock.at(Instant.parse("2026-12-06T10:00:00Z"));

	private final OverloadSignal overload;

	private final DegradationEngine engine;

	private final RequestDecider decider;

	RequestLifecycleTests() {
		DegradationManifest manifest = manifest(MANIFEST);
		this.overload = new OverloadSignal(manifest, this.nanos::get, this.clock);
		this.engine = new DegradationEngine(manifest, this.clock, List.of(this.overload), Runnable::run);
		this.decider = new RequestDecider(this.engine, RouteTable.compile(manifest), "/actuator", this.overload,
				DEADLINE, Duration.ofSeconds(30));
		this.decider.setRefusedCalls((failure) -> (failure instanceof NoAnswer noAnswer) ? noAnswer.dependency : null);
		this.decider.setCheapAnswerTurns(CheapAnswerTurns.of(1, Duration.ofSeconds(5)));
	}

	@Test
	void aHealthyServicesRequestGoesOnUnreadWithTheLevel() {
		DegradationManifest manifest = manifest(MANIFEST.substring(0, MANIFEST.indexOf("overload:"))
				+ MANIFEST.substring(MANIFEST.indexOf("tiers:")));
		DegradationEngine engine = new DegradationEngine(manifest, this.clock);
		RequestDecider decider = new RequestDecider(engine, RouteTable.compile(manifest), "/actuator", null, DEADLINE,
				Duration.ofSeconds(30));
		Stack request = new Stack(decider, "GET", "/api/recommendations", Map.of(), (stack) -> 200);
		assertThat(request.run()).isEqualTo("served 200");
		assertThat(request.steps).containsExactly("pass");
		assertThat(request.viewsRead).as("the request is not read").isZero();
		assertThat(request.answerHeaders).containsEntry(DegradationHeaders.LEVEL, "0");
	}

	@Test
	void aShedRouteIsAnsweredWithItsFallbackAndNeverReachesTheApplication() {
		this.engine.simulate(2);
		Stack request = get("/api/recommendations", (stack) -> {
			throw new AssertionError("the application is never called");
		});
		assertThat(request.run()).isEqualTo("answered 200 simulation");
		assertThat(request.steps).containsExactly("answering simulation /api/recommendations", "write",
				"body let go");
		assertThat(this.engine.fallbackCounts().count(1, "simulation")).isOne();
		assertThat(admission().admitted()).isZero();
	}

	@Test
	void anAdmittedRequestHoldsItsPlaceUntilItEndsAndItsEndIsASample() {
		Stack request = get("/api/orders", (stack) -> {
			assertThat(admission().inflight()).isOne();
			return 200;
		});
		assertThat(request.run()).isEqualTo("served 200");
		assertThat(admission().inflight()).isZero();
		assertThat(admission().succeeded()).isOne();
	}

	@Test
	void aRequestEndedPastItsCallersDeadlineIsNoSample() {
		Stack request = new Stack(this.decider, "GET", "/api/orders", Map.of(DEADLINE, "5"), (stack) -> {
			this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(10));
			return 200;
		});
		assertThat(request.run()).isEqualTo("served 200");
		assertThat(admission().inflight()).isZero();
		assertThat(admission().succeeded()).isZero();
		assertThat(admission().ignored()).isOne();
	}

	@Test
	void aCoreRequestThatFindsNoPlaceWaitsAndGoesOnWhenOneFrees() {
		Admitted held = hold();
		CompletableFuture<String> waiting = CompletableFuture
			.supplyAsync(() -> get("/api/orders", (stack) -> 200).run());
		await().atMost(Duration.ofSeconds(5)).until(() -> admission().waiting() == 1);
		held.onSuccess();
		assertThat(waiting).succeedsWithin(Duration.ofSeconds(5)).isEqualTo("served 200");
		assertThat(admission().inflight()).isZero();
	}

	@Test
	void aCoreRequestWhoseWaitEndsWithoutAPlaceIsRefusedWithRetryAfterAtOnceOrInTurnWhenAllRefusalsTakeTurns() {
		Admitted held = hold();
		try {
			assertThat(refusedAfterItsWait()).as("a caller not known to have come back early")
				.containsExactly("wait", "answering overload null", "write", "body let go");
			this.decider.setRefusedCallers(new RefusedCallers(RefusedCallers.Mode.ALWAYS));
			// The turn is given back once the answer is sent, before its body is let go: a body
			// still arriving must hold no turn.
			assertThat(refusedAfterItsWait()).containsExactly("wait", "turn taken", "answering overload null", "write",
					"turn given back", "body let go");
			assertThat(admission().refused()).isEqualTo(2);
		}
		finally {
			this.decider.setRefusedCallers(new RefusedCallers(RefusedCallers.Mode.RETRYING));
			held.onSuccess();
		}
	}

	private List<String> refusedAfterItsWait() {
		Stack request = get("/api/orders", (stack) -> 200);
		CompletableFuture<String> refused = CompletableFuture.supplyAsync(request::run);
		await().atMost(Duration.ofSeconds(5)).until(() -> admission().waiting() == 1);
		// The queue bound passes on admission's clock, the test's.
		this.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(101));
		assertThat(refused).succeedsWithin(Duration.ofSeconds(5)).isEqualTo("answered 503 overload");
		assertThat(request.answerHeaders).containsEntry("Retry-After", "3");
		return request.steps;
	}

	@Test
	void aDegradableRequestOverItsShareIsAnsweredWithItsFallbackAtOnce() {
		Admitted held = hold();
		try {
			Stack request = get("/api/recommendations", (stack) -> 200);
			assertThat(request.run()).isEqualTo("answered 200 overload");
			assertThat(request.steps).doesNotContain("wait").contains("turn taken", "turn given back");
		}
		finally {
			held.onSuccess();
		}
		assertThat(this.decider.cheapAnswerTurns().waiting()).isZero();
	}

	@Test
	void aCheapAnswerTakesNoTurnWhileNothingIsServed() {
		this.engine.simulate(2);
		Stack request = get("/api/recommendations", (stack) -> 200);
		request.run();
		assertThat(request.steps).doesNotContain("turn taken");
	}

	@Test
	void aGuardedCallThatGotNoAnswerIsAnsweredWithTheRoutesFallbackAndNoSample() {
		Stack request = get("/api/recommendations", (stack) -> {
			throw new NoAnswer("recommendations-api");
		});
		assertThat(request.run()).isEqualTo("answered 200 dependency:recommendations-api");
		assertThat(request.steps).containsExactly("pass", "observe NoAnswer", "replace",
				"answering dependency:recommendations-api /api/recommendations", "write");
		assertThat(admission().inflight()).isZero();
		assertThat(admission().succeeded()).as("the fallback is no sample of the service").isZero();
	}

	@Test
	void theApplicationsOwnFailureAndAFailureAfterItsAnswerBeganGoOn() {
		Stack own = get("/api/recommendations", (stack) -> {
			throw new IllegalStateException("the application's");
		});
		assertThatIllegalStateException().isThrownBy(own::run).withMessage("the application's");
		Stack started = get("/api/recommendations", (stack) -> {
			stack.answerStarted = true;
			throw new NoAnswer("recommendations-api");
		});
		assertThatIllegalStateException().isThrownBy(started::run);
		assertThat(started.steps).doesNotContain("replace");
		Stack unrequired = get("/api/orders", (stack) -> {
			throw new NoAnswer("recommendations-api");
		});
		assertThatIllegalStateException().as("the route does not require it").isThrownBy(unrequired::run);
		assertThat(admission().inflight()).isZero();
		assertThat(admission().succeeded()).isZero();
	}

	@Test
	void aBodyThatDoesNotArriveInTimeIsAnswered408BeforeAdmission() {
		Stack request = new Stack(this.decider, "POST", "/api/orders", Map.of(), (stack) -> 200);
		request.contentLength = 10;
		request.bodyArrives = false;
		assertThat(request.run()).isEqualTo("answered 408 null");
		assertThat(request.steps).containsExactly("read body", "write");
		assertThat(admission().admitted()).isZero();
	}

	@Test
	void aBodyThatArrivesIsReadBeforeTheRequestIsAdmitted() {
		Stack request = new Stack(this.decider, "POST", "/api/orders", Map.of(), (stack) -> 201);
		request.contentLength = 10;
		assertThat(request.run()).isEqualTo("served 201");
		assertThat(request.steps).containsExactly("read body", "pass");
		assertThat(admission().succeeded()).isOne();
	}

	@Test
	void thePrincipalIsMadeKnownOnlyForARouteThatKeepsOrServesCopies() {
		DegradationManifest manifest = manifest("""
				tiers:
				  enhanced:
				    priority: 1
				    routes:
				      - { path: /api/statement, method: GET, fallback: stale, max_stale_seconds: 60 }
				      - { path: /api/recommendations, method: GET, fallback: static, static_response: { "items": [] } }
				""");
		DegradationEngine engine = new DegradationEngine(manifest, this.clock);
		RequestDecider decider = new RequestDecider(engine, RouteTable.compile(manifest), "/actuator", null, DEADLINE,
				Duration.ofSeconds(30));
		Stack copied = new Stack(decider, "GET", "/api/statement", Map.of(), (stack) -> 200);
		assertThat(copied.run()).isEqualTo("served 200");
		assertThat(copied.steps).containsExactly("principal", "pass");
		Stack uncopied = new Stack(decider, "GET", "/api/recommendations", Map.of(), (stack) -> 200);
		uncopied.run();
		assertThat(uncopied.steps).containsExactly("pass");
		engine.simulate(1);
		Stack fromCopies = new Stack(decider, "GET", "/api/statement", Map.of(), (stack) -> 200);
		assertThat(fromCopies.run()).isEqualTo("answered 503 simulation");
		assertThat(fromCopies.steps).containsSubsequence("answering simulation /api/statement", "principal", "write");
		Stack fixed = new Stack(decider, "GET", "/api/recommendations", Map.of(), (stack) -> 200);
		assertThat(fixed.run()).isEqualTo("answered 200 simulation");
		assertThat(fixed.steps).doesNotContain("principal");
	}

	private Admitted hold() {
		Admission.Decision decision = admission().decide(admission().coreRank(), false, -1);
		assertThat(decision).isInstanceOf(Admitted.class);
		return (Admitted) decision;
	}

	private Admission admission() {
		Admission admission = this.overload.admission();
		assertThat(admission).isNotNull();
		return admission;
	}

	private Stack get(String path, ToIntFunction<Stack> application) {
		return new Stack(this.decider, "GET", path, Map.of(), application);
	}

	private static DegradationManifest manifest(String yaml) {
		return ManifestLoader.standard().load("lifecycle.yaml", yaml.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * A guarded call to a dependency that got no answer, as the refused calls read it.
	 */
	static final class NoAnswer extends IllegalStateException {

		final String dependency;

		NoAnswer(String dependency) {
			super("no answer from " + dependency);
			this.dependency = dependency;
		}

	}

	/**
	 * A stack of the test's own: it blocks where it waits, records every step it is asked for,
	 * and answers with what it wrote or the application's status.
	 */
	static final class Stack extends RequestLifecycle<String, RuntimeException> implements RequestView {

		final List<String> steps = new ArrayList<>();

		final Map<String, String> answerHeaders = new HashMap<>();

		private final String method;

		private final String path;

		private final Map<String, String> headers;

		private final ToIntFunction<Stack> application;

		long contentLength = -1;

		boolean bodyArrives = true;

		boolean answerStarted;

		int viewsRead;

		int status;

		Stack(RequestDecider decider, String method, String path, Map<String, String> headers,
				ToIntFunction<Stack> application) {
			super(decider, true);
			this.method = method;
			this.path = path;
			this.headers = headers;
			this.application = application;
		}

		@Override
		protected RequestView view() {
			this.viewsRead++;
			return this;
		}

		@Override
		protected long contentLength() {
			return this.contentLength;
		}

		@Override
		protected @Nullable String contentType() {
			return "application/json";
		}

		@Override
		protected String readBodyFirst(long timeoutNanos, Step<Boolean, String, RuntimeException> then) {
			this.steps.add("read body");
			return then.then(this.bodyArrives);
		}

		@Override
		protected String await(Decision.Wait wait, Step<@Nullable Admitted, String, RuntimeException> then) {
			this.steps.add("wait");
			return then.then(wait.await());
		}

		@Override
		protected String takeTurn(CheapAnswerTurns turns, Step<Boolean, String, RuntimeException> then) {
			boolean taken = turns.enter();
			if (taken) {
				this.steps.add("turn taken");
			}
			return then.then(taken);
		}

		@Override
		protected String sendInTurn(Action<String, RuntimeException> answer, Runnable giveBack) {
			try {
				return answer.run();
			}
			finally {
				giveBack.run();
				this.steps.add("turn given back");
			}
		}

		@Override
		protected String principalKnown(Action<String, RuntimeException> then, Runnable abandoned) {
			this.steps.add("principal");
			return then.run();
		}

		@Override
		protected void header(String name, String value) {
			this.answerHeaders.put(name, value);
		}

		@Override
		protected String pass(@Nullable Admitted admitted, long bodyTimeLimitNanos,
				StaleAnswers.@Nullable RouteCopies copies, @Nullable String copyKey) {
			this.steps.add("pass");
			boolean failed = true;
			try {
				String answered;
				try {
					this.status = this.application.applyAsInt(this);
					answered = "served " + this.status;
				}
				catch (RuntimeException ex) {
					answered = fallBack(ex, (failure) -> {
						throw ex;
					});
				}
				failed = false;
				return answered;
			}
			finally {
				ended(failed, this.status);
			}
		}

		@Override
		protected boolean answerStarted() {
			return this.answerStarted;
		}

		@Override
		protected void observeFailure(Throwable failure) {
			this.steps.add("observe " + failure.getClass().getSimpleName());
		}

		@Override
		protected void replaceAnswer() {
			this.steps.add("replace");
		}

		@Override
		protected void answering(String cause, @Nullable String pathPattern) {
			this.steps.add("answering " + cause + " " + pathPattern);
		}

		@Override
		protected String write(Answer answer) {
			this.steps.add("write");
			this.status = answer.status();
			for (int i = 0; i < answer.headers().length; i += 2) {
				this.answerHeaders.put(answer.headers()[i], answer.headers()[i + 1]);
			}
			return "answered " + answer.status() + " " + this.answerHeaders.get(DegradationHeaders.REASON);
		}

		@Override
		protected String lettingBodyGo(String written) {
			this.steps.add("body let go");
			return written;
		}

		@Override
		public String method() {
			return this.method;
		}

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
			return this.headers.get(name);
		}

	}

}
