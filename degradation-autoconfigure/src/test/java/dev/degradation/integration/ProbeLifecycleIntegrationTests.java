package dev.degradation.integration;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.degradation.monitor.probing.DependencyProbing;
import dev.degradation.testapp.FaultyDependency;
import dev.degradation.testapp.FaultyDependency.Mode;
import dev.degradation.testapp.ProbeRecorder;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Probing lives exactly as long as the application: it starts once the application is ready and,
 * when the context closes, stops without waiting for a hanging dependency, leaving no probe thread
 * and running no further probe.
 */
class ProbeLifecycleIntegrationTests {

	private final FaultyDependency recommendations = FaultyDependency.start("recommendations-api");

	private final FaultyDependency analytics = FaultyDependency.start("analytics-collector");

	@AfterEach
	void stopDependencies() {
		this.recommendations.close();
		this.analytics.close();
	}

	@Test
	void afterTheContextClosesNoProbeThreadIsLeftAndNoProbeRuns() {
		this.recommendations.set(Mode.HANGING);
		ConfigurableApplicationContext context = start();
		ProbeRecorder recorder = context.getBean(ProbeRecorder.class);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> recorder.results("recommendations-api").size() >= 2
					&& recorder.results("analytics-collector").size() >= 2);
		String prefix = context.getBean(DependencyProbing.class).threadNamePrefix();
		assertThat(probeThreads(prefix)).isPositive();

		Instant closing = Instant.now();
		context.close();
		Duration closeTime = Duration.between(closing, Instant.now());

		// A probe hanging at close was aborted, not waited for (its timeout is 200 ms): the
		// dependency never answers, so a probe thread waited for would still be there.
		assertThat(probeThreads(prefix)).as("probe threads after a close of %d ms with a probe hanging",
				closeTime.toMillis())
			.isZero();
		int probesAtClose = recorder.total();
		int requestsAtClose = this.analytics.requests().size() + this.recommendations.requests().size();
		// Hold for several probe intervals: nothing may probe a dependency or record a result.
		await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2)).until(() -> recorder.total() == probesAtClose
				&& this.analytics.requests().size() + this.recommendations.requests().size() == requestsAtClose);

	}

	@Test
	void aContextStoppedAndStartedAgainProbesAgain() {
		ConfigurableApplicationContext context = start();
		try {
			ProbeRecorder recorder = context.getBean(ProbeRecorder.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.total() > 0);
			context.stop();
			int stopped = recorder.total();
			context.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.total() > stopped + 2);
			assertThat(recorder.results("analytics-collector").get(recorder.results("analytics-collector").size() - 1)
				.healthy()).isTrue();
		}
		finally {
			context.close();
		}
	}

	@Test
	void probingStartsOnlyOnceTheApplicationIsReady() {
		// Application runners run after the context is refreshed and just before the application
		// is ready: by then no probe may have run, and afterwards probes must come.
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ShopTestApplication.class,
				DependencyFaultIntegrationTests.Recorder.class, ProbesSeenByRunner.class)
			.properties(properties())
			.run();
		try {
			ProbeRecorder recorder = context.getBean(ProbeRecorder.class);
			assertThat(context.getBean(ProbesSeenByRunner.class).count).isZero();
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.total() > 0);
		}
		finally {
			context.close();
		}
	}

	private ConfigurableApplicationContext start() {
		return new SpringApplicationBuilder(ShopTestApplication.class, DependencyFaultIntegrationTests.Recorder.class)
			.properties(properties())
			.run();
	}

	private String[] properties() {
		return new String[] { "server.port=0", "degradation.manifest=classpath:manifests/monitored.yaml",
				"test.recommendations.url=" + this.recommendations.healthUrl(),
				"test.analytics.url=" + this.analytics.healthUrl() };
	}

	private static long probeThreads(String prefix) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith(prefix))
			.count();
	}

	/**
	 * Counts the probe results recorded when the application runners run.
	 */
	static class ProbesSeenByRunner implements ApplicationRunner {

		private final ProbeRecorder recorder;

		volatile int count = -1;

		ProbesSeenByRunner(ProbeRecorder recorder) {
			this.recorder = recorder;
		}

		@Override
		public void run(ApplicationArguments args) {
			this.count = this.recorder.total();
		}

	}

}
