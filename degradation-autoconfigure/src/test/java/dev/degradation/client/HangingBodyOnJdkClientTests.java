package dev.degradation.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.client.HangingDependencyThreadCountTests.CallTimes;
import dev.degradation.client.HangingDependencyThreadCountTests.ThreadCount;
import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A dependency that sends the headers of its answer and then hangs in the body, called through
 * the JDK's {@code HttpClient} as Boot builds it, by concurrent requests on a real embedded
 * server: the client gives up on the body at the attempt's limit, on the request's own thread,
 * and every request gets its route's fallback in time. No thread of the guards' executor is
 * added while the requests wait; the JDK client's own worker pool is reported apart. The
 * dependency is served on loopback by one thread. The time is judged only when the JVM's threads
 * get a processor when they are ready, as in {@link HangingDependencyThreadCountTests}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		classes = HangingDependencyThreadCountTests.StalledApplication.class,
		properties = { "degradation.manifest=classpath:client/stalled-manifest.yaml",
				"degradation.probes.enabled=false", "spring.threads.virtual.enabled=false",
				"spring.http.clients.imperative.factory=jdk" })
class HangingBodyOnJdkClientTests {

	private static final int REQUESTS = 100;

	private static final Duration LIMIT = Duration.ofMillis(500);

	/** What the fallback may take beyond the limit on a loaded two-core machine. */
	private static final Duration LATE = Duration.ofMillis(700);

	private static final Duration SAMPLING = Duration.ofMillis(20);

	/** A wait for a processor beyond which the time limit cannot be judged. */
	private static final Duration STARVED = Duration.ofMillis(300);

	/** Threads the requests may add beyond the server's request threads and the client's workers. */
	private static final int EXTRA_THREADS = 10;

	private static final LoopbackDependency dependency = LoopbackDependency.start()
		.answer(Answer.ok("{" + " ".repeat(998) + "}").stallAfter(1));

	@LocalServerPort
	int port;

	@Autowired
	CallTimes callTimes;

	@DynamicPropertySource
	static void dependencyUrl(DynamicPropertyRegistry registry) {
		registry.add("stub.url", dependency::url);
	}

	@AfterAll
	static void stopDependency() {
		dependency.close();
	}

	@Test
	void everyRequestGetsTheFallbackWithinTheLimitAndNoThreadIsAdded() throws Exception {
		ExecutorService clientThreads = Executors.newFixedThreadPool(2);
		ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
		HttpClient http = HttpClient.newBuilder().executor(clientThreads).build();
		try {
			// The client's classes and connections, and the first guarded call, which shows the
			// interceptor that the client enforces the limit.
			for (int i = 0; i < 5; i++) {
				assertThat(isFallback(send(http).get(10, TimeUnit.SECONDS))).isTrue();
			}
			ThreadCount before = ThreadCount.now();
			List<ThreadCount> samples = new CopyOnWriteArrayList<>();
			AtomicLong due = new AtomicLong(System.nanoTime());
			AtomicLong late = new AtomicLong();
			sampler.scheduleWithFixedDelay(() -> {
				// How late this thread got a processor after its pause: how long any runnable
				// thread of the JVM may wait for one, here and now.
				late.accumulateAndGet(System.nanoTime() - due.get(), Math::max);
				samples.add(ThreadCount.now());
				due.set(System.nanoTime() + SAMPLING.toNanos());
			}, 0, SAMPLING.toMillis(), TimeUnit.MILLISECONDS);
			this.callTimes.clear();
			List<CompletableFuture<HttpResponse<String>>> answers = new CopyOnWriteArrayList<>();
			for (int i = 0; i < REQUESTS; i++) {
				answers.add(send(http));
			}
			await().atMost(Duration.ofSeconds(60)).until(() -> answers.stream().allMatch(CompletableFuture::isDone));
			sampler.shutdownNow();
			int peakCalls = samples.stream().mapToInt(ThreadCount::guardCalls).max().orElseThrow();
			int peakOthers = samples.stream().mapToInt(ThreadCount::others).max().orElseThrow();
			int peakWorkers = samples.stream().mapToInt(ThreadCount::clientWorkers).max().orElseThrow();
			Duration starved = Duration.ofNanos(late.get());
			Duration slowest = this.callTimes.stream().max(Duration::compareTo).orElseThrow();
			String report = String.format("Stalled body over the JDK client: before %d other threads, %d guard call "
					+ "threads, %d JDK client workers; peak (of %d samples) %d other, %d guard call threads, %d JDK "
					+ "client workers; %d requests, slowest guarded call %d ms; a runnable thread waited up to %d ms "
					+ "for a processor",
					before.others(), before.guardCalls(), before.clientWorkers(), samples.size(), peakOthers, peakCalls,
					peakWorkers, REQUESTS, slowest.toMillis(), starved.toMillis());
			assertThat(answers).allSatisfy((answer) -> assertThat(isFallback(answer.join())).isTrue());
			assertThat(peakCalls).as(report).isLessThanOrEqualTo(before.guardCalls());
			assertThat(peakOthers).as(report).isLessThanOrEqualTo(before.others() + EXTRA_THREADS);
			assertThat(this.callTimes).as(report).hasSize(REQUESTS);
			// The time, on a machine that runs this JVM's threads when they are ready.
			assumeTrue(starved.compareTo(STARVED) < 0, () -> "The JVM's threads waited up to " + starved.toMillis()
					+ " ms for a processor: the time limit cannot be judged on this machine now");
			assertThat(slowest).as(report).isLessThan(LIMIT.plus(LATE));
		}
		finally {
			sampler.shutdownNow();
			clientThreads.shutdownNow();
		}
	}

	private CompletableFuture<HttpResponse<String>> send(HttpClient http) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/stalled"))
			.timeout(Duration.ofSeconds(60))
			.build();
		return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
	}

	private static boolean isFallback(HttpResponse<String> response) {
		return response.statusCode() == 200 && "true".equals(response.headers().firstValue("X-Degraded").orElse(null))
				&& response.body().equals("{\"source\":\"degraded\"}");
	}

}
