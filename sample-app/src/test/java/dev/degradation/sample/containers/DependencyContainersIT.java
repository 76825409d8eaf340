package dev.degradation.sample.containers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.dockerjava.api.DockerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.event.DegradationNotifier;
import dev.degradation.monitor.probing.DependencyProbing;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.LevelChange;
import dev.degradation.manifest.HealthCheck;
import dev.degradation.monitor.DependencyStateChange;
import dev.degradation.sample.SampleShopApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample shop, with the seed's cumulative shedding ({@code failed_dependency_sheds: tiers},
 * through the {@code sample.failed-dependency-sheds} property), against its three dependencies
 * running as real processes in containers, faulted
 * through the Docker API while the shop serves traffic: paused (the kernel still accepts
 * connections, nothing answers), stopped (connections refused), started again, and flapping.
 * Every test prints what it measured.
 *
 * <p>Needs a Docker engine ({@code .ci/docker.sh}); runs with {@code ./mvnw verify -Pcontainers}
 * and fails, rather than skips, without one. Images are built here from local files; containers
 * use the host network and bind 127.0.0.1 only.
 */
@SpringBootTest(classes = SampleShopApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.health-check-interval-ms=200", "sample.timeout-ms=500", "sample.window-seconds=4",
				"sample.min-samples=3", "sample.hysteresis-seconds=2", "sample.failed-dependency-sheds=tiers",
				// These tests judge the shed level that dependencies cause; admission under load,
				// which a hanging dependency's held threads would saturate too, is tested apart.
				"degradation.overload.enabled=false" })
@Import(DependencyContainersIT.LevelRecorder.class)
class DependencyContainersIT {

	private static final Duration HYSTERESIS = Duration.ofSeconds(2);

	/** Scheduling, container and HTTP noise on a busy two-core machine, on top of every bound. */
	private static final Duration ALLOWANCE = Duration.ofSeconds(2);

	/**
	 * The longest a core request may take while a dependency is faulted: the core routes never
	 * call a dependency, so this only allows for a busy two-core machine.
	 */
	private static final Duration CORE_LATENCY_BOUND = Duration.ofSeconds(2);

	private static final Map<String, StubContainer> dependencies = startDependencies("analytics-collector",
			"recommendations-api", "personalization-service");

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	DependencyProbing probing;

	@Autowired
	LevelRecorder levels;

	@Autowired
	DegradationNotifier notifier;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	@DynamicPropertySource
	static void dependencyUrls(DynamicPropertyRegistry registry) {
		dependencies.forEach((name, dependency) -> registry.add("sample.dependencies." + name + ".url",
				() -> "http://127.0.0.1:" + dependency.port));
	}

	@AfterAll
	static void stopDependencies() {
		dependencies.values().forEach((dependency) -> dependency.container.stop());
	}

	@BeforeEach
	void everyDependencyRunningAndNothingShed() throws Exception {
		dependencies.values().forEach(StubContainer::restore);
		await().atMost(recoveryBound(2)).pollInterval(Duration.ofMillis(50)).until(() -> this.engine.state().level() == 0
				&& this.engine.dependencies().stream().allMatch((status) -> status.state().name().equals("HEALTHY")));
		// Listeners are told on the notifier's thread, in order: once a task queued now has run,
		// every change made so far has been recorded.
		CompletableFuture.runAsync(() -> {
		}, this.notifier).get(5, TimeUnit.SECONDS);
		this.levels.changes.clear();
		this.levels.dependencyChanges.clear();
	}

	@Test
	void aPausedDependencyShedsOnlyTheTierThatRequiresIt() throws Exception {
		StubContainer analytics = dependencies.get("analytics-collector");
		Instant faulted = Instant.now();
		analytics.pause();
		Duration bound = degradeBound("analytics-collector");
		// Poll the level, not the route: while the tier is live, its route waits on the paused
		// dependency for the shop's own client timeout.
		await().atMost(bound).pollInterval(Duration.ofMillis(20)).until(() -> this.engine.state().level() == 1);
		Duration toDegrade = Duration.between(faulted, Instant.now());
		assertThat(trackDegraded()).as("best-effort shed %d ms after the pause (bound %d ms)", toDegrade.toMillis(),
				bound.toMillis())
			.isTrue();
		assertTheOtherTierAndTheCoreAreLiveAndFast();

		analytics.unpause();
		await().atMost(recoveryBound(1)).pollInterval(Duration.ofMillis(20)).until(() -> this.engine.state().level() == 0);
		assertThat(trackDegraded()).isFalse();
	}

	@Test
	void aStoppedDependencyShedsOnlyTheTierThatRequiresItAndComesBackWhenStarted() throws Exception {
		StubContainer analytics = dependencies.get("analytics-collector");
		Instant faulted = Instant.now();
		analytics.stop();
		Duration bound = degradeBound("analytics-collector");
		await().atMost(bound).pollInterval(Duration.ofMillis(20)).until(() -> this.engine.state().level() == 1);
		Duration toDegrade = Duration.between(faulted, Instant.now());
		assertThat(trackDegraded()).as("best-effort shed %d ms after the stop (bound %d ms)", toDegrade.toMillis(),
				bound.toMillis())
			.isTrue();
		assertThat(this.engine.dependency("analytics-collector").lastProbe().outcome()).isEqualTo("refused");
		assertTheOtherTierAndTheCoreAreLiveAndFast();

		analytics.start();
		// Starting the container includes the stub's JVM start.
		await().atMost(recoveryBound(1).plusSeconds(5)).pollInterval(Duration.ofMillis(20))
			.until(() -> this.engine.state().level() == 0);
		assertThat(trackDegraded()).isFalse();
	}

	@Test
	void afterARestartFullAnswersComeBackOneTierAtATimeAfterTheHysteresis() throws Exception {
		StubContainer recommendations = dependencies.get("recommendations-api");
		recommendations.stop();
		await().atMost(degradeBound("recommendations-api")).pollInterval(Duration.ofMillis(50)).until(() -> this.engine.state().level() == 2);
		assertThat(get("/api/ab/assign").body()).contains("\"source\":\"degraded\"");
		assertThat(get("/api/recommendations").body()).contains("\"source\":\"degraded\"");

		recommendations.start();
		await().atMost(recoveryBound(2).plusSeconds(5)).pollInterval(Duration.ofMillis(50))
			.until(() -> this.engine.state().level() == 0);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.levels.changes.size() >= 3);
		List<LevelChange> changes = List.copyOf(this.levels.changes);
		assertThat(changes).extracting(LevelChange::level).containsExactly(2, 1, 0);
		Duration firstStep = Duration.between(changes.get(0).at(), changes.get(1).at());
		Duration secondStep = Duration.between(changes.get(1).at(), changes.get(2).at());
		assertThat(firstStep).isGreaterThanOrEqualTo(HYSTERESIS);
		assertThat(secondStep).isGreaterThanOrEqualTo(HYSTERESIS);
		assertThat(get("/api/recommendations").body()).contains("\"source\":\"live\"");
	}

	@Test
	void aFlappingDependencyChangesTheLevelABoundedNumberOfTimes() throws Exception {
		StubContainer recommendations = dependencies.get("recommendations-api");
		Duration flapping = Duration.ofSeconds(20);
		// Paused long enough for the dependency to be judged failed (about 3 s with a 4 s window,
		// probes 200 ms apart and a 500 ms timeout), then running long enough to recover.
		long pausedMillis = 3500;
		long runningMillis = 3000;
		ScheduledExecutorService flapper = Executors.newSingleThreadScheduledExecutor();
		AtomicInteger cycles = new AtomicInteger();
		try {
			flapper.scheduleAtFixedRate(() -> {
				recommendations.pause();
				cycles.incrementAndGet();
				flapper.schedule(recommendations::unpause, pausedMillis, TimeUnit.MILLISECONDS);
			}, 0, pausedMillis + runningMillis, TimeUnit.MILLISECONDS);
			flapper.schedule(() -> null, flapping.toMillis(), TimeUnit.MILLISECONDS).get(flapping.toSeconds() + 10,
					TimeUnit.SECONDS);
		}
		finally {
			flapper.shutdownNow();
			flapper.awaitTermination(5, TimeUnit.SECONDS);
			recommendations.restore();
		}
		int dependencyChanges = this.levels.dependencyChanges.size();
		int levelChanges = this.levels.changes.size();
		// A rise can come at any time, but each step down waits the hysteresis since the last change.
		long bound = 2 * (flapping.toMillis() / HYSTERESIS.toMillis()) + 2;
		assertThat(dependencyChanges).as("the dependency really flapped (%d pause/unpause cycles)", cycles.get())
			.isGreaterThanOrEqualTo(4);
		assertThat(levelChanges).as("level changes over %d s of flapping", flapping.toSeconds())
			.isPositive()
			.isLessThanOrEqualTo((int) bound);
	}

	@Test
	void coreRoutesStayFastUnderConcurrentLoadWhileADependencyIsPaused() throws Exception {
		StubContainer recommendations = dependencies.get("recommendations-api");
		recommendations.pause();
		await().atMost(degradeBound("recommendations-api")).pollInterval(Duration.ofMillis(50)).until(() -> this.engine.state().level() == 2);

		int clients = 20;
		Duration duration = Duration.ofSeconds(10);
		List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
		AtomicInteger failures = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		Instant end = Instant.now().plus(duration);
		List<Future<?>> running = new ArrayList<>();
		for (int i = 0; i < clients; i++) {
			String path = (i % 2 == 0) ? "/api/products" : "/api/products/p-1";
			running.add(pool.submit(() -> {
				while (Instant.now().isBefore(end)) {
					long start = System.nanoTime();
					try {
						HttpResponse<String> response = get(path);
						if (response.statusCode() != 200) {
							failures.incrementAndGet();
						}
					}
					catch (IOException | InterruptedException ex) {
						failures.incrementAndGet();
					}
					latencies.add(System.nanoTime() - start);
				}
				return null;
			}));
		}
		for (Future<?> client : running) {
			client.get(duration.toSeconds() + 30, TimeUnit.SECONDS);
		}
		pool.shutdown();
		List<Long> sorted = new ArrayList<>(latencies);
		Collections.sort(sorted);
		long probeThreads = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith(this.probing.threadNamePrefix()))
			.count();
		assertThat(failures.get()).isZero();
		assertThat(sorted).isNotEmpty();
		assertThat(Duration.ofNanos(sorted.get(sorted.size() - 1)))
			.as("slowest of %d requests from %d clients (p50 %.1f ms, p99 %.1f ms)", sorted.size(), clients,
					millis(sorted, 0.50), millis(sorted, 0.99))
			.isLessThan(CORE_LATENCY_BOUND);
		assertThat(probeThreads).isLessThanOrEqualTo(dependencies.size() + 1);
	}

	private void assertTheOtherTierAndTheCoreAreLiveAndFast() throws Exception {
		assertThat(this.engine.state().shedTiers()).containsExactly("best-effort");
		long start = System.nanoTime();
		HttpResponse<String> recommendations = get("/api/recommendations");
		assertThat(recommendations.body()).contains("\"source\":\"live\"");
		HttpResponse<String> products = get("/api/products");
		assertThat(products.statusCode()).isEqualTo(200);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CORE_LATENCY_BOUND);
	}

	private boolean trackDegraded() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(uri("/api/analytics/track"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"product-viewed\",\"productId\":\"p-1\"}"))
			.timeout(Duration.ofSeconds(5))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		return response.statusCode() == 204 && "true".equals(response.headers().firstValue("X-Degraded").orElse(""));
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	/**
	 * The longest a healthy dependency with a full window takes to count as failed once every
	 * probe fails: the window holds at most {@code window / interval + 1} results, so it takes
	 * {@code ceil(failure_threshold * that)} failed probes, at most {@code interval + timeout}
	 * apart, plus one such period for the probe in flight when the fault began.
	 */
	private Duration degradeBound(String dependency) {
		HealthCheck check = healthCheck(dependency);
		long capacity = check.window().toMillis() / check.interval().toMillis() + 1;
		long failures = (long) Math.ceil(check.failureThreshold() * capacity);
		return period(check).multipliedBy(failures + 1).plus(ALLOWANCE);
	}

	/**
	 * The longest recovery once a dependency answers again: its failures age out of the window,
	 * then each of {@code steps} tiers waits the hysteresis.
	 */
	private Duration recoveryBound(int steps) {
		Duration slowest = this.engine.manifest()
			.dependencies()
			.stream()
			.map((dependency) -> dependency.healthCheck().window().plus(period(dependency.healthCheck()).multipliedBy(2)))
			.max(Duration::compareTo)
			.orElseThrow();
		return slowest.plus(HYSTERESIS.multipliedBy(steps)).plus(ALLOWANCE);
	}

	private HealthCheck healthCheck(String dependency) {
		return this.engine.manifest().dependency(dependency).orElseThrow().healthCheck();
	}

	private static Duration period(HealthCheck check) {
		return check.interval().plus(check.timeout());
	}

	private static double millis(List<Long> sortedNanos, double quantile) {
		int index = (int) Math.min(sortedNanos.size() - 1, Math.ceil(quantile * sortedNanos.size()) - 1);
		return sortedNanos.get(Math.max(0, index)) / 1_000_000.0;
	}

	private static Map<String, StubContainer> startDependencies(String... names) {
		ImageFromDockerfile image = StubDependencyImage.build(Path.of("target", "container-suite"));
		Map<String, StubContainer> started = new LinkedHashMap<>();
		for (String name : names) {
			started.put(name, new StubContainer(image, freeLoopbackPort()));
		}
		return started;
	}

	private static int freeLoopbackPort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * One dependency container, on the host network, bound to 127.0.0.1.
	 */
	static final class StubContainer {

		final int port;

		final GenericContainer<?> container;

		private volatile boolean paused;

		private volatile boolean stopped;

		StubContainer(ImageFromDockerfile image, int port) {
			this.port = port;
			this.container = new GenericContainer<>(image).withNetworkMode("host")
				.withCommand("/jre/bin/java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
						"-Xmx64m", "-cp", "/app", StubDependency.class.getName(),
						String.valueOf(port))
				.waitingFor(Wait.forLogMessage(".*READY.*", 1).withStartupTimeout(Duration.ofSeconds(60)));
			this.container.start();
		}

		void pause() {
			docker().pauseContainerCmd(this.container.getContainerId()).exec();
			this.paused = true;
		}

		void unpause() {
			docker().unpauseContainerCmd(this.container.getContainerId()).exec();
			this.paused = false;
		}

		void stop() {
			// The stub is PID 1 and exits on SIGTERM at once; no grace period is needed.
			docker().stopContainerCmd(this.container.getContainerId()).withTimeout(0).exec();
			this.stopped = true;
		}

		void start() {
			docker().startContainerCmd(this.container.getContainerId()).exec();
			this.stopped = false;
		}

		void restore() {
			if (this.paused) {
				unpause();
			}
			if (this.stopped) {
				start();
			}
		}

		private DockerClient docker() {
			return this.container.getDockerClient();
		}

	}

	/**
	 * Records every change of the active level and of a dependency's state, with its time.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class LevelRecorder implements DegradationListener {

		final List<LevelChange> changes = new CopyOnWriteArrayList<>();

		final List<DependencyStateChange> dependencyChanges = new CopyOnWriteArrayList<>();

		@Override
		public void levelChanged(LevelChange change) {
			this.changes.add(change);
		}

		@Override
		public void dependencyChanged(DependencyStateChange change) {
			this.dependencyChanges.add(change);
		}

	}

}
