package dev.degradation.overload;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.OverloadSignal;
import dev.degradation.testapp.CapacityTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On a real server under real concurrent load (loopback, bounded in count and time), a service
 * of about 50 answers a second offered several times that with a 1 s client deadline: core
 * requests beyond capacity get 503 with Retry-After at once, degradable ones their fallback,
 * nothing is answered after its caller gave up, nothing admitted is left over after the load, and
 * the Actuator answers throughout.
 */
@SpringBootTest(classes = CapacityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/overload.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation,health" })
class OverloadIntegrationTests {

	/**
	 * The status a refused core request gets under the test's manifest.
	 * @return the status
	 */
	int refusalStatus() {
		return 503;
	}

	/**
	 * Whether the requests are served on virtual threads.
	 * @return whether they are
	 */
	boolean virtualThreads() {
		return false;
	}

	private static final Duration CLIENT_DEADLINE = Duration.ofSeconds(1);

	private static final Duration LOAD = Duration.ofSeconds(4);

	/**
	 * Clients of the core route: each waits for its answer, so beyond the limit they are refused.
	 * More than the adaptive limit's first value, so that admission's own limit is what they meet
	 * from the first request: ten, below it, met it only when the limit had come down to them in
	 * time, and a queue in the service under a limit not full is not the limit's to cut.
	 */
	private static final int CORE_CLIENTS = 24;

	/**
	 * Clients of the degradable route, whose fallbacks come back fast, so each sends many: few
	 * enough that the test's own client, in the same JVM on two cores, leaves the server its CPU.
	 */
	private static final int DEGRADABLE_CLIENTS = 4;

	private static final int CLIENTS = CORE_CLIENTS + DEGRADABLE_CLIENTS;

	@LocalServerPort
	int port;

	@Autowired
	OverloadSignal overload;

	@Test
	void beyondCapacityTheCoreIsRefusedFastTheDegradableServedItsFallbackAndNothingOutlivesItsCaller()
			throws Exception {
		HttpClient client = HttpClient.newBuilder().connectTimeout(CLIENT_DEADLINE).build();
		// Warm the endpoint first: what is measured is its answer under load, not its first call.
		// Its first call initializes the web stack, which a busy machine may take longer than the
		// client deadline to do.
		HttpRequest warmUp = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/degradation"))
			.timeout(Duration.ofSeconds(30))
			.build();
		assertThat(client.send(warmUp, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
		HttpRequest thread = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/thread"))
			.timeout(Duration.ofSeconds(30))
			.build();
		assertThat(client.send(thread, HttpResponse.BodyHandlers.ofString()).body().startsWith("VirtualThread"))
			.as("served on virtual threads")
			.isEqualTo(virtualThreads());
		Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
		List<String> wrong = new CopyOnWriteArrayList<>();
		AtomicInteger timeouts = new AtomicInteger();
		List<Long> actuatorMillis = new CopyOnWriteArrayList<>();
		long end = System.nanoTime() + LOAD.toNanos();
		ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
		List<Future<?>> running = new ArrayList<>();
		try {
			for (int i = 0; i < CLIENTS; i++) {
				String path = (i < CORE_CLIENTS) ? "/api/checkout" : "/api/recommendations";
				int refusalStatus = refusalStatus();
				running.add(pool.submit(() -> {
					for (int sent = 0; sent < 2000 && System.nanoTime() < end; sent++) {
						try {
							HttpResponse<String> response = client.send(request(path), HttpResponse.BodyHandlers.ofString());
							outcomes.computeIfAbsent(path + " " + classify(response, refusalStatus, wrong),
									(key) -> new LongAdder())
								.increment();
						}
						catch (HttpTimeoutException ex) {
							timeouts.incrementAndGet();
						}
					}
					return null;
				}));
			}
			running.add(pool.submit(() -> {
				while (System.nanoTime() < end) {
					long start = System.nanoTime();
					HttpResponse<String> response = client.send(request("/actuator/degradation"),
							HttpResponse.BodyHandlers.ofString());
					assertThat(response.statusCode()).isEqualTo(200);
					actuatorMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
					TimeUnit.MILLISECONDS.sleep(100);
				}
				return null;
			}));
			for (Future<?> future : running) {
				future.get(LOAD.toSeconds() + 30, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		String report = "outcomes " + outcomes + ", client timeouts " + timeouts + ", limit "
				+ this.overload.admission().limit() + ", actuator " + actuatorMillis + " ms";
		assertThat(wrong).as(report).isEmpty();
		assertThat(timeouts).as("answers later than the 1 s client deadline").hasValue(0);
		assertThat(count(outcomes, "/api/checkout live")).isPositive();
		assertThat(count(outcomes, "/api/checkout refused")).as("core beyond capacity").isPositive();
		assertThat(count(outcomes, "/api/recommendations fallback")).as("degradable under load").isPositive();
		assertThat(actuatorMillis).isNotEmpty().allSatisfy((millis) -> assertThat(millis).isLessThan(1000));
		// The adaptive limit came through the load still admitting work.
		assertThat(this.overload.admission().limit()).as(report).isPositive();
		Admission admission = this.overload.admission();
		await().atMost(Duration.ofSeconds(1)).until(() -> admission.inflight() == 0 && admission.waiting() == 0);
	}

	private HttpRequest request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(CLIENT_DEADLINE)
			.header("x-envoy-expected-rq-timeout-ms", Long.toString(CLIENT_DEADLINE.toMillis()))
			.GET()
			.build();
	}

	private static String classify(HttpResponse<String> response, int refusalStatus, List<String> wrong) {
		if (response.statusCode() == 200 && response.headers().firstValue("X-Degraded").isEmpty()) {
			return "live";
		}
		if (response.statusCode() == 200 && response.body().equals("{\"items\":[],\"source\":\"degraded\"}")
				&& response.headers().firstValue("X-Degradation-Reason").orElse("").equals("overload")) {
			return "fallback";
		}
		if (response.statusCode() == refusalStatus && response.headers().firstValue("Retry-After").orElse("").equals("2")
				&& response.headers().firstValue("X-Degraded").orElse("").equals("true")) {
			return "refused";
		}
		wrong.add(response.statusCode() + " " + response.headers().map() + " " + response.body());
		return "wrong";
	}

	private static long count(Map<String, LongAdder> outcomes, String key) {
		LongAdder adder = outcomes.get(key);
		return (adder != null) ? adder.sum() : 0;
	}

}
