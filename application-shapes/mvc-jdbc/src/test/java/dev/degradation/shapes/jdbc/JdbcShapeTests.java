package dev.degradation.shapes.jdbc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pressure rules on a real server, a real HikariCP pool on an embedded H2 database and the JVM's
 * own heap (this JVM has 192 MB, see the module's surefire configuration): callers queued for the
 * pool shed the tier of the database's optional reads, a heap that stays full after collection
 * sheds the best-effort tier, the core keeps answering, and both come back once the pressure is
 * gone and the hysteresis has passed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JdbcShapeTests {

	private static final ExecutorService queries = Executors.newFixedThreadPool(2);

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	MeterRegistry registry;

	@AfterAll
	static void stopQueries() {
		SlowQueries.release();
		queries.shutdownNow();
	}

	@Test
	@Order(1)
	void everyRouteAnswersLiveAndTheEndpointListsTheRules() throws Exception {
		assertLive("/api/orders/1/history");
		assertLive("/api/recommendations");
		String status = get("/actuator/degradation").body();
		assertThat(status).contains("\"pressure\"", "\"meter\":\"jvm.memory.usage.after.gc\"",
				"\"meter\":\"hikaricp.connections.pending\"", "\"state\":\"clear\"");
	}

	@Test
	@Order(2)
	void callersQueuedForThePoolShedTheOptionalReadsWhileTheOrdersWaitTheirTurn() throws Exception {
		this.jdbc.execute("CREATE ALIAS IF NOT EXISTS HOLD FOR 'dev.degradation.shapes.jdbc.SlowQueries.hold'");
		SlowQueries.arm();
		List<Future<Integer>> slow = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			slow.add(queries.submit(() -> this.jdbc.queryForObject("SELECT HOLD()", Integer.class)));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			for (Future<Integer> query : slow) {
				if (query.isDone()) {
					query.get();
				}
			}
			return pool("hikaricp.connections.active") == 2;
		});
		// Three orders queue for the two connections the slow queries hold.
		List<CompletableFuture<HttpResponse<String>>> orders = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			orders.add(this.client.sendAsync(request("/api/orders"), HttpResponse.BodyHandlers.ofString()));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> pool("hikaricp.connections.pending") >= 2);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertShed("/api/orders/1/history", "pressure:hikaricp.connections.pending"));
		assertShed("/api/recommendations", "pressure:hikaricp.connections.pending");
		assertThat(get("/actuator/degradation").body()).contains("\"state\":\"pressing\"");
		assertThat(orders).noneMatch(CompletableFuture::isDone);

		SlowQueries.release();
		for (Future<Integer> query : slow) {
			assertThat(query.get(10, TimeUnit.SECONDS)).isEqualTo(1);
		}
		for (CompletableFuture<HttpResponse<String>> order : orders) {
			HttpResponse<String> answer = order.get(10, TimeUnit.SECONDS);
			assertThat(answer.statusCode()).isEqualTo(200);
			assertThat(answer.body()).isEqualTo("{\"orders\":2}");
		}
		// The pool drains: after the hysteresis, one tier a second, the reads are live again.
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertLive("/api/orders/1/history"));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertLive("/api/recommendations"));
	}

	@Test
	@Order(3)
	void aHeapThatStaysFullAfterCollectionShedsTheBestEffortTierAndTheCoreKeepsAnswering() throws Exception {
		List<byte[]> retained = new ArrayList<>();
		// Retain 4 MB at a time, collecting after each, until the heap after collection passes the
		// rule's 0.6 of the heap and the best-effort tier is shed; 30 steps at most (120 MB).
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
			if (heapAfterGc() < 0.65 && retained.size() < 30) {
				retained.add(new byte[4 << 20]);
			}
			System.gc();
			return degraded("/api/recommendations");
		});
		assertShed("/api/recommendations", "pressure:jvm.memory.usage.after.gc");
		assertThat(heapAfterGc()).isGreaterThan(0.6);
		// The core keeps answering, and the tier above the rule's is not shed.
		HttpResponse<String> orders = get("/api/orders");
		assertThat(orders.statusCode()).isEqualTo(200);
		assertThat(orders.headers().firstValue("X-Degraded")).isEmpty();
		assertLive("/api/orders/1/history");

		retained.clear();
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
			System.gc();
			return !degraded("/api/recommendations");
		});
		assertThat(heapAfterGc()).isLessThan(0.45);
	}

	private double pool(String meter) {
		return this.registry.get(meter).tag("pool", "orders").gauge().value();
	}

	private double heapAfterGc() {
		return this.registry.get("jvm.memory.usage.after.gc").tag("area", "heap").tag("pool", "long-lived")
			.gauge()
			.value();
	}

	private void assertShed(String path, String cause) throws Exception {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue(cause);
		assertThat(response.body()).contains("\"source\":\"degraded\"");
	}

	private void assertLive(String path) throws Exception {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
	}

	private boolean degraded(String path) throws Exception {
		return get(path).headers().firstValue("X-Degraded").isPresent();
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.client.send(request(path), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.build();
	}

}
