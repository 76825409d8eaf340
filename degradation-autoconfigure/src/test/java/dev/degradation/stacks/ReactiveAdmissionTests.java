package dev.degradation.stacks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.engine.OverloadSignal;
import dev.degradation.overload.Admission;
import dev.degradation.web.reactive.DegradationWebFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission on WebFlux under concurrent load, on a real Reactor Netty server: every decision runs
 * on an event-loop thread and none parks it. Core requests that wait for a place wait on a timer:
 * while more of them wait than the server has event loops, the server still answers (the
 * Actuator, and the shed routes' fallbacks); once places free, the waiting requests are admitted
 * first come first served, and none is refused.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"degradation.manifest=classpath:manifests/stacks-wait.yaml", "degradation.probes.enabled=false",
				"test.inventory.url=http://127.0.0.1:9/healthz", "management.endpoints.web.exposure.include=health" })
@Import(ReactiveAdmissionTests.DecisionThreads.class)
class ReactiveAdmissionTests {

	/** More than Reactor Netty's event loops on any machine this runs on (at least 4). */
	private static final int WAITING = 24;

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	StackTestApplication.Holds holds;

	@Autowired
	OverloadSignal overload;

	@Autowired
	DecisionThreads threads;

	@AfterEach
	void release() {
		this.holds.reset();
	}

	@Test
	void waitingCoreRequestsParkNoEventLoopAndAreAdmittedInTurnWhenPlacesFree() throws Exception {
		this.threads.resumed.clear();
		Admission admission = this.overload.active().admission();
		List<CompletableFuture<HttpResponse<String>>> held = send(3, "GET", "/api/hold");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.holds.started.get() == 3);

		List<CompletableFuture<HttpResponse<String>>> waiting = send(WAITING, "GET", "/api/core");
		await().atMost(Duration.ofSeconds(10)).until(() -> admission.waiting() == WAITING);

		// Every event loop has waiting requests on its connections: a parked loop would answer
		// nothing until the waits ended.
		HttpResponse<String> health = this.client.send(request("GET", "/actuator/health"),
				HttpResponse.BodyHandlers.ofString());
		assertThat(health.statusCode()).isEqualTo(200);
		HttpResponse<String> dropped = this.client.send(request("POST", "/api/track"),
				HttpResponse.BodyHandlers.ofString());
		assertThat(dropped.statusCode()).isEqualTo(204);
		assertThat(admission.waiting()).as("answered while every waiting request still waited").isEqualTo(WAITING);
		assertThat(waiting).noneMatch(CompletableFuture::isDone);

		this.holds.release.complete("released");
		for (CompletableFuture<HttpResponse<String>> answer : held) {
			assertThat(answer.get().body()).isEqualTo("released");
		}
		for (CompletableFuture<HttpResponse<String>> answer : waiting) {
			HttpResponse<String> response = answer.get();
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("core");
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> admission.inflight() == 0 && admission.waiting() == 0);
		assertThat(this.threads.resumed).as("the threads the waiting requests went on on").hasSize(WAITING)
			.allMatch((thread) -> thread.startsWith("parallel-"), "Reactor's parallel scheduler, not the thread "
					+ "that freed the place nor the JDK's timer");
		assertThat(this.threads.decisions.get()).isGreaterThanOrEqualTo(3 + WAITING + 2);
		assertThat(this.threads.offLoop).as("decisions taken off an event loop").isEmpty();
	}

	@Test
	void waitingRequestsWhoseTimeRunsOutAreRefusedOnReactorsSchedulerNotOnTheJdksTimer() throws Exception {
		this.threads.committed.clear();
		Admission admission = this.overload.active().admission();
		List<CompletableFuture<HttpResponse<String>>> held = send(3, "GET", "/api/hold");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.holds.started.get() == 3);

		// Their callers wait 300 ms: the timer ends their wait long before the queue bound.
		List<CompletableFuture<HttpResponse<String>>> late = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			late.add(this.client.sendAsync(HttpRequest.newBuilder(request("GET", "/api/core"), (name, value) -> true)
				.header("x-envoy-expected-rq-timeout-ms", "300")
				.build(), HttpResponse.BodyHandlers.ofString()));
		}
		for (CompletableFuture<HttpResponse<String>> answer : late) {
			HttpResponse<String> response = answer.get();
			assertThat(response.statusCode()).isEqualTo(503);
			assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue("overload");
		}
		assertThat(this.threads.committed).as("the threads the refusals were written on").hasSize(6)
			.allMatch((thread) -> thread.startsWith("parallel-"), "Reactor's parallel scheduler, not the JDK's "
					+ "CompletableFuture timer");
		this.holds.release.complete("released");
		for (CompletableFuture<HttpResponse<String>> answer : held) {
			assertThat(answer.get().body()).isEqualTo("released");
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> admission.inflight() == 0 && admission.waiting() == 0);
	}

	@Test
	void aBurstOfMixedRequestsIsDecidedOnTheEventLoopsAndEveryRequestIsAnswered() throws Exception {
		List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
		for (int round = 0; round < 50; round++) {
			answers.addAll(send(1, "GET", "/api/core"));
			answers.addAll(send(1, "GET", "/api/items/" + round));
			answers.addAll(send(1, "POST", "/api/track"));
			answers.addAll(send(1, "GET", "/actuator/health"));
		}
		AtomicInteger served = new AtomicInteger();
		AtomicInteger reduced = new AtomicInteger();
		for (CompletableFuture<HttpResponse<String>> answer : answers) {
			HttpResponse<String> response = answer.get();
			assertThat(response.statusCode()).isIn(200, 204);
			(response.headers().firstValue("X-Degraded").isPresent() ? reduced : served).incrementAndGet();
		}
		// The core and the Actuator are never reduced: every fourth request at least is served.
		assertThat(served.get()).isGreaterThanOrEqualTo(100);
		assertThat(this.threads.offLoop).as("decisions taken off an event loop").isEmpty();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.overload.active().admission().inflight() == 0);
	}

	private List<CompletableFuture<HttpResponse<String>>> send(int count, String method, String path) {
		List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			answers.add(this.client.sendAsync(request(method, path), HttpResponse.BodyHandlers.ofString()));
		}
		return answers;
	}

	private HttpRequest request(String method, String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
	}

	/**
	 * Records, just before the starter's filter, the thread each decision runs on: an event loop
	 * (a Reactor non-blocking thread) or not.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class DecisionThreads {

		final AtomicInteger decisions = new AtomicInteger();

		final Set<String> offLoop = ConcurrentHashMap.newKeySet();

		final List<String> resumed = new CopyOnWriteArrayList<>();

		final List<String> committed = new CopyOnWriteArrayList<>();

		@Bean
		WebFilter decisionThreadRecorder() {
			return new Recorder(this);
		}

		@Bean
		WebFilter resumedThreadRecorder() {
			return new ResumedRecorder(this);
		}

	}

	/**
	 * Records, just after the starter's filter, the thread each core request goes on on.
	 */
	private record ResumedRecorder(DecisionThreads threads) implements WebFilter, Ordered {

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
			if (exchange.getRequest().getPath().value().equals("/api/core")) {
				this.threads.resumed.add(Thread.currentThread().getName());
			}
			return chain.filter(exchange);
		}

		@Override
		public int getOrder() {
			return DegradationWebFilter.DEFAULT_ORDER + 1;
		}

	}

	private record Recorder(DecisionThreads threads) implements WebFilter, Ordered {

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
			this.threads.decisions.incrementAndGet();
			if (!Schedulers.isInNonBlockingThread()) {
				this.threads.offLoop.add(Thread.currentThread().getName());
			}
			if (exchange.getRequest().getPath().value().equals("/api/core")) {
				exchange.getResponse().beforeCommit(() -> {
					this.threads.committed.add(Thread.currentThread().getName());
					return Mono.empty();
				});
			}
			return chain.filter(exchange);
		}

		@Override
		public int getOrder() {
			return DegradationWebFilter.DEFAULT_ORDER - 1;
		}

	}

}
