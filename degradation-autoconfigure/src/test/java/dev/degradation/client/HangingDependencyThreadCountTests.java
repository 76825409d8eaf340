package dev.degradation.client;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A dependency that hangs, under 200 requests a second for 10 s, on a real embedded server: the
 * guarded calls cost no thread of their own. The application's {@code RestClient} comes from
 * Boot's builder over the HTTP client a subclass has Boot pick (Apache HttpClient, the JDK's
 * {@code HttpClient}, Reactor Netty), which enforces each attempt's time limit itself with the
 * starter's hook, so the calls wait on their request's thread. The live platform threads other than the server's
 * own request threads (which a blocking request holds whatever the guard does) are counted
 * before the load and every 20 ms during it, and may grow by a small constant only; no thread of
 * the guards' executor is added. Every answer is the route's fallback, and each guarded call
 * gives up within the time limit (measured around the call in the handler, apart from the time
 * a request waits to be served). The dependency is a black hole on loopback served by one thread;
 * the load comes from a client with two threads of its own, started before the count, and the
 * test ends at most a minute after the last request was sent.
 *
 * <p>Threads are asserted whatever the machine. The time is judged only when the JVM's threads get
 * a processor when they are ready (the sampler, a thread like any other, is never more than
 * 300 ms late): on a machine shared with heavier work a request waits for a processor, not for
 * the guard, and the test then says so and skips that part.
 *
 * <p>Run over Apache HttpClient on platform threads ({@link HangingDependencyOnPlatformThreadsTests})
 * and, by a JDK 21 or later, on virtual threads ({@link HangingDependencyOnVirtualThreadsTests});
 * over the JDK's client ({@link HangingDependencyOnJdkClientTests}) and over Reactor Netty
 * ({@link HangingDependencyOnReactorNettyTests}) on platform threads.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		classes = HangingDependencyThreadCountTests.StalledApplication.class,
		properties = { "degradation.manifest=classpath:client/stalled-manifest.yaml",
				"degradation.probes.enabled=false" })
abstract class HangingDependencyThreadCountTests {

	private static final int RATE = 200;

	private static final int REQUESTS = RATE * 10;

	private static final Duration LIMIT = Duration.ofMillis(500);

	/** What the fallback may take beyond the limit on a loaded two-core machine. */
	private static final Duration LATE = Duration.ofMillis(700);

	private static final Duration SAMPLING = Duration.ofMillis(20);

	/** How long the answers of the load may take to arrive once it is sent. */
	private static final Duration DRAIN = Duration.ofSeconds(60);

	/** A wait for a processor beyond which the time limit cannot be judged. */
	private static final Duration STARVED = Duration.ofMillis(300);

	/** The guarded calls that hang at once under the load: each waits out the limit. */
	private static final int CALLS_IN_FLIGHT = (int) (RATE * LIMIT.toMillis() / 1000);

	/** Threads the load may add beyond the server's request threads. */
	private static final int EXTRA_THREADS = 10;

	/**
	 * One black hole for every subclass run in the JVM, never closed (a daemon thread): closed
	 * after the first subclass, it would refuse the next ones' calls, which then fail at once.
	 */
	private static final LoopbackDependency dependency = LoopbackDependency.start()
		.answer(dev.degradation.fixture.Answer.hang());

	@LocalServerPort
	int port;

	@Autowired
	DependencyGuards guards;

	@Autowired
	CallTimes callTimes;

	@DynamicPropertySource
	static void dependencyUrl(DynamicPropertyRegistry registry) {
		registry.add("stub.url", dependency::url);
	}

	/**
	 * Return whether the server is expected to serve requests on virtual threads.
	 * @return whether it runs on virtual threads
	 */
	abstract boolean virtualThreads();

	/**
	 * Return the request factory Boot's builder is expected to build for the application.
	 * @return its type
	 */
	Class<? extends ClientHttpRequestFactory> requestFactory() {
		return HttpComponentsClientHttpRequestFactory.class;
	}

	@Test
	void theApplicationsClientIsTheExpectedOne(@Autowired ClientHttpRequestFactoryBuilder<?> builder) {
		assertThat(builder.build()).isInstanceOf(requestFactory());
	}

	@Test
	void aHangingDependencyUnderLoadAddsNoThreadsAndEveryCallerGetsTheFallbackInTime() throws Exception {
		ExecutorService clientThreads = Executors.newFixedThreadPool(2, named("load-client-"));
		ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(named("load-ticker-"));
		ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(named("thread-sampler-"));
		HttpClient http = HttpClient.newBuilder().executor(clientThreads).build();
		try {
			HttpResponse<String> thread = send(http, "/api/warm-up").get(10, TimeUnit.SECONDS);
			assertThat(thread.body().startsWith("VirtualThread")).as(thread.body()).isEqualTo(virtualThreads());
			// The client's classes and connections, and the first guarded call through it,
			// which shows the interceptor that the client enforces the limit.
			for (int i = 0; i < 10; i++) {
				assertFallback(send(http, "/api/stalled").get(10, TimeUnit.SECONDS));
			}
			List<Integer> others = new CopyOnWriteArrayList<>();
			List<Integer> calls = new CopyOnWriteArrayList<>();
			List<Integer> requests = new CopyOnWriteArrayList<>();
			List<Integer> workers = new CopyOnWriteArrayList<>();
			CountDownLatch sampled = new CountDownLatch(1);
			AtomicLong due = new AtomicLong(System.nanoTime());
			AtomicLong late = new AtomicLong();
			sampler.scheduleWithFixedDelay(() -> {
				// How late this thread got a processor after its 20 ms pause: how long any
				// runnable thread of the JVM may wait for one, here and now.
				late.accumulateAndGet(System.nanoTime() - due.get(), Math::max);
				ThreadCount count = ThreadCount.now();
				others.add(count.others());
				calls.add(count.guardCalls());
				requests.add(count.serverRequests());
				workers.add(count.clientWorkers());
				sampled.countDown();
				due.set(System.nanoTime() + SAMPLING.toNanos());
			}, 0, SAMPLING.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(sampled.await(10, TimeUnit.SECONDS)).isTrue();
			ThreadCount before = ThreadCount.now();
			int connectionsBefore = dependency.connections();
			long cpuBefore = processCpuTime();
			long wallBefore = System.nanoTime();
			this.callTimes.clear();
			List<CompletableFuture<Answer>> answers = new CopyOnWriteArrayList<>();
			CountDownLatch sent = new CountDownLatch(REQUESTS);
			for (int i = 0; i < REQUESTS; i++) {
				ticker.schedule(() -> {
					long started = System.nanoTime();
					answers.add(send(http, "/api/stalled").handle((response, failure) -> {
						Duration took = Duration.ofNanos(System.nanoTime() - started);
						if (failure != null) {
							return new Answer(took, null, failure.toString());
						}
						return new Answer(took, isFallback(response) ? null : response.statusCode() + " " + response.body(),
								null);
					}));
					sent.countDown();
				}, i * 1_000_000L / RATE, TimeUnit.MICROSECONDS);
			}
			assertThat(sent.await(60, TimeUnit.SECONDS)).isTrue();
			boolean drained = drained(answers, DRAIN);
			sampler.shutdownNow();
			long cpu = processCpuTime() - cpuBefore;
			long wall = System.nanoTime() - wallBefore;
			int peak = others.stream().mapToInt(Integer::intValue).max().orElseThrow();
			int peakCalls = calls.stream().mapToInt(Integer::intValue).max().orElseThrow();
			int peakRequests = requests.stream().mapToInt(Integer::intValue).max().orElseThrow();
			int peakWorkers = workers.stream().mapToInt(Integer::intValue).max().orElseThrow();
			List<Answer> answered = answers.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join).toList();
			List<String> wrong = answered.stream().map(Answer::wrong).filter((answer) -> answer != null).toList();
			List<String> failures = answered.stream().map(Answer::failure).filter((failure) -> failure != null).toList();
			List<Duration> took = answered.stream().map(Answer::took).sorted().toList();
			List<Duration> callTimes = this.callTimes.stream().sorted().toList();
			Duration slowestCall = percentile(callTimes, 100);
			Duration starved = Duration.ofNanos(late.get());
			String report = String.format(java.util.Locale.ROOT,
					"%s threads: before %d other + %d server request threads; during (peak of %d samples) "
					+ "%d other, %d server request threads, %d guard call threads (%d before), %d JDK client workers "
					+ "(%d before); %d requests, %d done, %d answers not "
					+ "the fallback, %d without an answer, done in %d ms (median), %d ms (99th percentile), %d ms (slowest); guarded calls "
					+ "%d ms (median), %d ms (99th), %d ms (slowest) of %d; executor refusals %d; connections to the "
					+ "dependency %d; a runnable thread waited up to %d ms for a processor; process CPU %d ms in %d ms, "
					+ "load average %.1f",
					virtualThreads() ? "virtual" : "platform", before.others(), before.serverRequests(), others.size(),
					peak, peakRequests, peakCalls, before.guardCalls(), peakWorkers, before.clientWorkers(), REQUESTS, answered.size(), wrong.size(), failures.size(),
					percentile(took, 50).toMillis(), percentile(took, 99).toMillis(), percentile(took, 100).toMillis(),
					percentile(callTimes, 50).toMillis(), percentile(callTimes, 99).toMillis(), slowestCall.toMillis(),
					callTimes.size(), this.guards.executor().rejected(), dependency.connections() - connectionsBefore,
					starved.toMillis(), cpu / 1_000_000, wall / 1_000_000,
					ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
			// The threads, whatever the machine: only the server's own request threads grew (and,
			// over the JDK's client, the client's own worker pool, in the report).
			assertThat(peak).as(report).isLessThanOrEqualTo(before.others() + EXTRA_THREADS);
			assertThat(peakCalls).as(report).isLessThanOrEqualTo(before.guardCalls());
			// The JDK client's own pool (cached, as the client makes it with or without a guard)
			// runs the completions of timed-out exchanges: it grows in bursts, but by fewer threads
			// than there are calls hanging at once (RATE x LIMIT), which a thread per call would add.
			assertThat(peakWorkers - before.clientWorkers()).as(report).isLessThan(CALLS_IN_FLIGHT);
			assertThat(this.guards.executor().rejected()).as(report).isZero();
			assertThat(wrong).as(report).isEmpty();
			// The time, on a machine that runs this JVM's threads when they are ready: on one
			// shared with other work a request waits for a processor, not for the guard.
			assumeTrue(starved.compareTo(STARVED) < 0, () -> "The JVM's threads waited up to " + starved.toMillis()
					+ " ms for a processor: the time limit cannot be judged on this machine now");
			// Nor, on virtual threads, when this test's own load (its HTTP client runs in this JVM)
			// takes most of the machine: a woken virtual thread then waits behind it on the
			// carriers' queue. A platform thread is woken by the operating system's scheduler,
			// which does not put it behind the load.
			double machineShare = (double) cpu / wall / Runtime.getRuntime().availableProcessors();
			assumeTrue(!virtualThreads() || machineShare < 0.75, () -> String.format(java.util.Locale.ROOT,
					"This process took %.0f %% of the machine's CPU: the time limit cannot be judged now",
					100 * machineShare));
			assertThat(drained).as(report).isTrue();
			assertThat(failures).as(report).isEmpty();
			assertThat(answered).as(report).hasSize(REQUESTS);
			assertThat(callTimes).as(report).hasSize(REQUESTS);
			assertThat(slowestCall).as(report).isLessThan(LIMIT.plus(LATE));
		}
		finally {
			sampler.shutdownNow();
			ticker.shutdownNow();
			clientThreads.shutdownNow();
		}
	}

	private static boolean drained(List<CompletableFuture<Answer>> answers, Duration within) throws Exception {
		try {
			CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
				.get(within.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (java.util.concurrent.TimeoutException ex) {
			return false;
		}
	}

	private static Duration percentile(List<Duration> sorted, int percent) {
		return sorted.isEmpty() ? Duration.ZERO
				: sorted.get(Math.min(sorted.size() - 1, sorted.size() * percent / 100));
	}

	private static long processCpuTime() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	private static boolean isFallback(HttpResponse<String> response) {
		return response.statusCode() == 200 && "true".equals(response.headers().firstValue("X-Degraded").orElse(null))
				&& response.body().equals("{\"source\":\"degraded\"}");
	}

	private static void assertFallback(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(response.body()).isEqualTo("{\"source\":\"degraded\"}");
	}

	private CompletableFuture<HttpResponse<String>> send(HttpClient http, String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(60))
			.build();
		return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
	}

	private static ThreadFactory named(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * How one request of the load was answered.
	 *
	 * @param took from sending to the whole answer
	 * @param wrong the answer it got instead of the fallback, or {@code null}
	 * @param failure why it got no answer, or {@code null}
	 */
	private record Answer(Duration took, String wrong, String failure) {

	}

	/**
	 * The live platform threads of the JVM (virtual threads are not enumerated; their carriers are),
	 * split into the server's request threads, the JDK {@code HttpClient}'s own workers (its
	 * default executor, a cached pool that grows with the completions it has to deliver at once,
	 * with or without the guard) and the others; the threads of the guards' executor are among
	 * the others and counted apart too.
	 */
	record ThreadCount(int serverRequests, int others, int guardCalls, int clientWorkers) {

		static ThreadCount now() {
			// All live platform threads by the JVM's own count, carriers of virtual threads among
			// them; names from an enumeration, not Thread.getAllStackTraces(), whose stack walks
			// would slow the count.
			int live = ManagementFactory.getThreadMXBean().getThreadCount();
			int requests = 0;
			int calls = 0;
			int workers = 0;
			ThreadGroup root = Thread.currentThread().getThreadGroup();
			while (root.getParent() != null) {
				root = root.getParent();
			}
			Thread[] threads = new Thread[root.activeCount() + 64];
			int named = root.enumerate(threads, true);
			for (int i = 0; i < named; i++) {
				String name = threads[i].getName();
				if (name.startsWith("http-nio-") && name.contains("-exec-")) {
					requests++;
				}
				if (name.startsWith("degradation-call-")) {
					calls++;
				}
				if (name.startsWith("HttpClient-") && name.contains("-Worker-")) {
					workers++;
				}
			}
			return new ThreadCount(requests, live - requests - workers, calls, workers);
		}

	}

	@UnsecuredTestConfiguration
	static class StalledApplication {

		@Bean
		CallTimes callTimes() {
			return new CallTimes();
		}

		@Bean
		StalledController stalledController(RestClient.Builder builder, Environment env, CallTimes callTimes) {
			return new StalledController(builder.baseUrl(env.getRequiredProperty("stub.url")).build(), callTimes);
		}

	}

	/**
	 * How long each guarded call took its caller, from the call to its refusal: the time limit
	 * as the application sees it, apart from the time a request spends queued for the server
	 * or for a processor on a machine the test shares.
	 */
	static class CallTimes extends ConcurrentLinkedQueue<Duration> {

	}

	@RestController
	static class StalledController {

		private final RestClient client;

		private final Queue<Duration> callTimes;

		StalledController(RestClient client, Queue<Duration> callTimes) {
			this.client = client;
			this.callTimes = callTimes;
		}

		@GetMapping("/api/stalled")
		String stalled() {
			long started = System.nanoTime();
			try {
				return this.client.get().uri("/stalled").retrieve().body(String.class);
			}
			finally {
				this.callTimes.add(Duration.ofNanos(System.nanoTime() - started));
			}
		}

		@GetMapping("/api/warm-up")
		String warmUp() {
			return Thread.currentThread().toString();
		}

	}

}
