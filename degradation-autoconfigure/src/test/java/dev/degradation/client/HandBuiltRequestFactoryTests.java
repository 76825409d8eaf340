package dev.degradation.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code RestClient} built from Boot's builder on a request factory the application made itself
 * (Spring's JDK factory, Spring's {@code HttpURLConnection} factory), calling a dependency that
 * accepts every connection and never answers: once the first call has shown the guard that the
 * client bounds its requests itself, 100 calls at once add no thread of the guards' executor, and
 * each ends within the time limit and a bound with the guard's time-out. Without the starter's
 * bound on the application's factory every one of them would hold an executor thread (100 at the
 * peak).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		classes = HandBuiltRequestFactoryTests.HandBuiltFactories.class,
		properties = { "degradation.manifest=classpath:client/stalled-manifest.yaml",
				"degradation.probes.enabled=false" })
class HandBuiltRequestFactoryTests {

	private static final int CALLS = 100;

	/** The dependency's time limit in the manifest. */
	private static final Duration LIMIT = Duration.ofMillis(500);

	/** What a call may take beyond the limit on a loaded two-core machine, as the load tests allow. */
	private static final Duration LATE = Duration.ofMillis(700);

	private static final LoopbackDependency dependency = LoopbackDependency.start().answer(Answer.hang());

	@Autowired
	DependencyGuards guards;

	@Autowired
	ApplicationContext context;

	@DynamicPropertySource
	static void dependencyUrl(DynamicPropertyRegistry registry) {
		registry.add("stub.url", dependency::url);
	}

	@AfterAll
	static void closeDependency() {
		dependency.close();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "jdkClient", "simpleClient" })
	void hundredCallsToAHangingDependencyAddNoThreadAndEachEndsWithinItsLimit(String name) throws Exception {
		RestClient client = this.context.getBean(name, RestClient.class);
		GuardExecutor executor = this.guards.executor();
		ExecutorService callers = Executors.newFixedThreadPool(CALLS);
		ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
		try {
			// The first call shows the guard that the client bounds its calls itself (its limit is
			// claimed), and loads the client's classes; every call after it runs on its caller's
			// thread.
			Call first = callers.submit(() -> call(client)).get(30, TimeUnit.SECONDS);
			assertThat(first.refusal()).isNotNull();
			await().atMost(Duration.ofSeconds(10)).until(() -> executor.active() == 0);
			int threadsBefore = guardThreads();
			AtomicInteger peakActive = new AtomicInteger();
			AtomicInteger peakThreads = new AtomicInteger();
			sampler.scheduleWithFixedDelay(() -> {
				peakActive.accumulateAndGet(executor.active(), Math::max);
				peakThreads.accumulateAndGet(guardThreads(), Math::max);
			}, 0, 10, TimeUnit.MILLISECONDS);
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Call>> calls = new ArrayList<>();
			for (int i = 0; i < CALLS; i++) {
				calls.add(callers.submit(() -> {
					start.await();
					return call(client);
				}));
			}
			start.countDown();
			List<Call> ended = new ArrayList<>();
			for (Future<Call> call : calls) {
				ended.add(call.get(60, TimeUnit.SECONDS));
			}
			sampler.shutdown();
			assertThat(sampler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
			List<Duration> took = ended.stream().map(Call::took).sorted().toList();
			String report = String.format("%s: %d calls at once; guard executor peak %d calls; guard threads %d before, "
					+ "%d at the peak; calls took %d ms (median), %d ms (slowest)", name, CALLS, peakActive.get(),
					threadsBefore, peakThreads.get(), took.get(CALLS / 2).toMillis(), took.get(CALLS - 1).toMillis());
			assertThat(ended).allSatisfy((call) -> {
				assertThat(call.refusal()).isNotNull();
				assertThat(call.refusal().reason()).isEqualTo(DependencyUnavailableException.Reason.TIMEOUT);
			});
			assertThat(ended).as(report).hasSize(CALLS);
			assertThat(peakActive.get()).as(report).isZero();
			assertThat(peakThreads.get()).as(report).isLessThanOrEqualTo(threadsBefore);
			assertThat(took.get(CALLS - 1)).as(report).isLessThan(LIMIT.plus(LATE));
		}
		finally {
			sampler.shutdownNow();
			callers.shutdownNow();
		}
	}

	private static Call call(RestClient client) {
		long started = System.nanoTime();
		try {
			client.get().uri("/stalled").retrieve().body(String.class);
			return new Call(Duration.ofNanos(System.nanoTime() - started), null);
		}
		catch (DependencyUnavailableException ex) {
			return new Call(Duration.ofNanos(System.nanoTime() - started), ex);
		}
	}

	/** The live threads of the guards' executors, of every context in the JVM. */
	private static int guardThreads() {
		return HangingDependencyThreadCountTests.ThreadCount.now().guardCalls();
	}

	/**
	 * How one call ended.
	 *
	 * @param took how long it took its caller
	 * @param refusal the guard's refusal, or {@code null} if it got an answer
	 */
	record Call(Duration took, DependencyUnavailableException refusal) {

	}

	@UnsecuredTestConfiguration
	static class HandBuiltFactories {

		@Bean
		RestClient jdkClient(RestClient.Builder builder, Environment env) {
			JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory();
			// Longer than the dependency's limit: the guard's limit bounds the call.
			factory.setReadTimeout(Duration.ofSeconds(30));
			return builder.baseUrl(env.getRequiredProperty("stub.url")).requestFactory(factory).build();
		}

		@Bean
		RestClient simpleClient(RestClient.Builder builder, Environment env) {
			return builder.baseUrl(env.getRequiredProperty("stub.url"))
				.requestFactory(new SimpleClientHttpRequestFactory())
				.build();
		}

	}

}
