package dev.degradation.sample;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.client.DependencyGuards;
import dev.degradation.client.GuardExecutor;
import dev.degradation.sample.embedded.EmbeddedDependencies;
import dev.degradation.test.AutoConfigureDegradation;

import static dev.degradation.sample.ShopClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Each mode of an embedded dependency, switched through the demo API of the running shop and
 * observed by a client of the dependency itself, and by the shop's own live route. The starter's
 * probes are off here (the default of {@link AutoConfigureDegradation}), so that no route is shed
 * by the engine whatever the dependencies do: what the routes answer is the shop's own handling of
 * an error answer, or the fallback the starter gives a request whose guarded call got no answer.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.dependencies.timeout=" + DependencyModesTests.SHOP_TIMEOUT_MS + "ms",
				"sample.embedded.slow-delay=" + DependencyModesTests.SLOW_DELAY_MS + "ms" })
@AutoConfigureDegradation
class DependencyModesTests {

	static final long SHOP_TIMEOUT_MS = 500;

	static final long SLOW_DELAY_MS = 1000;

	private static final Duration CLIENT_TIMEOUT = Duration.ofMillis(300);

	private static final Duration BOUND = Duration.ofSeconds(10);

	private static final String RECOMMENDATIONS_API = "recommendations-api";

	/** Requests in flight at once while the dependency hangs. */
	private static final int CONCURRENT_REQUESTS = 40;

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@LocalServerPort
	private int port;

	@Autowired
	private EmbeddedDependencies dependencies;

	@Autowired
	private DependencyGuards guards;

	private ShopClient shop;

	@BeforeEach
	void connect() {
		this.shop = new ShopClient(this.port);
	}

	@AfterEach
	void makeEveryDependencyHealthy() {
		this.dependencies.healAll();
	}

	@Test
	void demoListsEachEmbeddedDependencyWithItsModeAndPort() {
		HttpResponse<String> response = this.shop.get("/demo/dependencies");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode list = json(response);
		assertThat(list.valueStream().map((dependency) -> dependency.get("name").asString()))
			.containsExactly("analytics-collector", "recommendations-api", "personalization-service");
		for (JsonNode dependency : list) {
			int port = this.dependencies.dependency(dependency.get("name").asString()).port();
			assertThat(dependency.get("mode").asString()).isEqualTo("healthy");
			assertThat(dependency.get("port").asInt()).isEqualTo(port);
			assertThat(dependency.get("url").asString()).isEqualTo("http://127.0.0.1:" + port);
			assertThat(dependency.get("slowDelayMs").asLong()).isEqualTo(SLOW_DELAY_MS);
		}
	}

	@Test
	void failingDependencyAnswers500OnEveryEndpointWhileTheOthersStayHealthy() throws Exception {
		this.shop.switchDependency(RECOMMENDATIONS_API, "failing");
		assertThat(get(RECOMMENDATIONS_API, "/healthz").statusCode()).isEqualTo(500);
		assertThat(get(RECOMMENDATIONS_API, "/recommendations").statusCode()).isEqualTo(500);
		assertThat(get("personalization-service", "/healthz").statusCode()).isEqualTo(200);
		assertThat(get("analytics-collector", "/healthz").statusCode()).isEqualTo(200);
	}

	@Test
	void refusingDependencyRefusesConnectionsOnItsPortWhileTheOthersStayHealthy() throws Exception {
		this.shop.switchDependency(RECOMMENDATIONS_API, "refusing");
		assertThat(dependency(RECOMMENDATIONS_API).get("mode").asString()).isEqualTo("refusing");
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> get(RECOMMENDATIONS_API, "/healthz"));
		assertThat(get("personalization-service", "/healthz").statusCode()).isEqualTo(200);
	}

	@Test
	void refusingDependencyListensOnTheSamePortAgainWhenHealthy() throws Exception {
		int port = dependency(RECOMMENDATIONS_API).get("port").asInt();
		this.shop.switchDependency(RECOMMENDATIONS_API, "refusing");
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> get(RECOMMENDATIONS_API, "/healthz"));
		this.shop.switchDependency(RECOMMENDATIONS_API, "healthy");
		assertThat(dependency(RECOMMENDATIONS_API).get("port").asInt()).isEqualTo(port);
		assertThat(get(RECOMMENDATIONS_API, "/healthz").statusCode()).isEqualTo(200);
	}

	@Test
	void hangingDependencyAcceptsTheConnectionButNeverAnswers() throws Exception {
		this.shop.switchDependency(RECOMMENDATIONS_API, "hanging");
		URI url = url(RECOMMENDATIONS_API);
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(url.getHost(), url.getPort()), 1000);
			assertThat(socket.isConnected()).isTrue();
		}
		assertThatExceptionOfType(HttpTimeoutException.class)
			.isThrownBy(() -> get(RECOMMENDATIONS_API, "/healthz", CLIENT_TIMEOUT));
		assertThat(dependency(RECOMMENDATIONS_API).get("heldRequests").asInt()).isPositive();
	}

	/**
	 * The shop's hanging-dependency run under concurrent requests: its {@code RestClient} is built
	 * on a JDK request factory the shop makes by hand, which the starter bounds per request, so
	 * every guarded call waits on its request's own thread and none takes a thread of the guards'
	 * executor (without the bound each would, one per request, for the whole time limit).
	 */
	@Test
	void hangingDependencyUnderConcurrentRequestsTakesNoThreadPerCall() throws Exception {
		CircuitBreaker breaker = this.guards.guard(RECOMMENDATIONS_API).circuitBreaker();
		// Closed, whatever earlier tests of this cached context did: every request below calls.
		breaker.reset();
		this.shop.switchDependency(RECOMMENDATIONS_API, "hanging");
		// The first call shows the guard that the shop's client bounds its calls itself.
		assertThat(this.shop.get("/api/recommendations").headers().firstValue("X-Degraded")).hasValue("true");
		GuardExecutor executor = this.guards.executor();
		await().atMost(BOUND).until(() -> executor.active() == 0);
		long refusedBefore = breaker.getMetrics().getNumberOfNotPermittedCalls();
		AtomicInteger peak = new AtomicInteger();
		ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
		ExecutorService callers = Executors.newFixedThreadPool(CONCURRENT_REQUESTS);
		try {
			sampler.scheduleWithFixedDelay(() -> peak.accumulateAndGet(executor.active(), Math::max), 0, 10,
					TimeUnit.MILLISECONDS);
			CountDownLatch start = new CountDownLatch(1);
			List<Future<HttpResponse<String>>> responses = new ArrayList<>();
			for (int i = 0; i < CONCURRENT_REQUESTS; i++) {
				responses.add(callers.submit(() -> {
					start.await();
					return this.shop.get("/api/recommendations");
				}));
			}
			start.countDown();
			for (Future<HttpResponse<String>> response : responses) {
				HttpResponse<String> answered = response.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
				assertThat(answered.statusCode()).isEqualTo(200);
				assertThat(answered.headers().firstValue("X-Degraded")).hasValue("true");
			}
			sampler.shutdown();
			assertThat(sampler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
			// Every request called the hanging dependency (its breaker let every call through)...
			assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(refusedBefore);
			// ...and no call held a thread of the guards' executor.
			assertThat(peak.get()).isZero();
		}
		finally {
			sampler.shutdownNow();
			callers.shutdownNow();
			breaker.reset();
		}
	}

	@Test
	void hangingDependencyAnswersItsHeldRequestsWhenSwitchedBackToHealthy() {
		this.shop.switchDependency(RECOMMENDATIONS_API, "hanging");
		CompletableFuture<HttpResponse<String>> held = this.client.sendAsync(
				HttpRequest.newBuilder(URI.create(url(RECOMMENDATIONS_API) + "/healthz")).build(),
				HttpResponse.BodyHandlers.ofString());
		await().atMost(BOUND).until(() -> dependency(RECOMMENDATIONS_API).get("heldRequests").asInt() == 1);
		assertThat(held).isNotDone();
		this.shop.switchDependency(RECOMMENDATIONS_API, "healthy");
		assertThat(held).succeedsWithin(BOUND).extracting(HttpResponse::statusCode).isEqualTo(200);
	}

	@Test
	void slowDependencyAnswersOnlyAfterTheDelay() throws Exception {
		this.shop.switchDependency(RECOMMENDATIONS_API, "slow");
		long start = System.nanoTime();
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(URI.create(url(RECOMMENDATIONS_API) + "/healthz")).timeout(BOUND).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(SLOW_DELAY_MS));
		assertThatExceptionOfType(HttpTimeoutException.class)
			.isThrownBy(() -> get(RECOMMENDATIONS_API, "/healthz", CLIENT_TIMEOUT));
	}

	@Test
	void anErrorAnswerOfTheDependencyIsTheShopsOwnBadGatewayWhileTheCoreAnswers() {
		this.shop.switchDependency(RECOMMENDATIONS_API, "failing");
		HttpResponse<String> response = this.shop.get("/api/recommendations");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(502);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(json(response).get("dependency").asString()).isEqualTo(RECOMMENDATIONS_API);
		assertThat(this.shop.get("/api/products").statusCode()).isEqualTo(200);
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "refusing", "hanging", "slow" })
	void noAnswerFromTheDependencyIsTheRoutesFallbackWithinTheShopsTimeoutWhileTheCoreAnswers(String mode) {
		this.shop.switchDependency(RECOMMENDATIONS_API, mode);
		long start = System.nanoTime();
		HttpResponse<String> response = this.shop.get("/api/recommendations");
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		// The guard got no answer, the shop does not handle that itself, and the route requires
		// the dependency: the starter answers with the manifest's fallback, marked.
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:" + RECOMMENDATIONS_API);
		assertThat(json(response).get("source").asString()).isEqualTo("degraded");
		// The shop's call waits at most its timeout; one second on top covers a loaded machine.
		assertThat(took).isLessThan(Duration.ofMillis(SHOP_TIMEOUT_MS + 1000));
		assertThat(this.shop.get("/api/products").statusCode()).isEqualTo(200);
	}

	@Test
	void demoShowsWhenTheModeLastChanged() {
		Instant before = Instant.now();
		this.shop.switchDependency(RECOMMENDATIONS_API, "failing");
		Instant since = Instant.parse(dependency(RECOMMENDATIONS_API).get("since").asString());
		assertThat(since).isBetween(before, Instant.now());
	}

	@Test
	void modeNamesAreCaseInsensitive() {
		this.shop.switchDependency(RECOMMENDATIONS_API, "FAILING");
		assertThat(dependency(RECOMMENDATIONS_API).get("mode").asString()).isEqualTo("failing");
	}

	@Test
	void unknownDependencyIsNotFound() {
		HttpResponse<String> response = this.shop.put("/demo/dependencies/nope", "{\"mode\": \"failing\"}");
		assertThat(response.statusCode()).isEqualTo(404);
		JsonNode problem = json(response);
		assertThat(problem.get("detail").asString()).contains("nope");
		assertThat(problem.get("dependencies").valueStream().map(JsonNode::asString)).contains(RECOMMENDATIONS_API);
		assertThat(this.shop.get("/demo/dependencies/nope").statusCode()).isEqualTo(404);
	}

	@Test
	void unknownModeIsRejectedWithTheAllowedModesAndChangesNothing() {
		HttpResponse<String> response = this.shop.put("/demo/dependencies/" + RECOMMENDATIONS_API,
				"{\"mode\": \"flaky\"}");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode problem = json(response);
		assertThat(problem.get("detail").asString()).contains("'flaky'");
		assertThat(problem.get("allowed").valueStream().map(JsonNode::asString)).containsExactly("healthy",
				"failing", "refusing", "hanging", "slow");
		assertThat(dependency(RECOMMENDATIONS_API).get("mode").asString()).isEqualTo("healthy");
	}

	@Test
	void missingModeIsRejected() {
		HttpResponse<String> response = this.shop.put("/demo/dependencies/" + RECOMMENDATIONS_API, "{}");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).get("detail").asString()).contains("missing");
	}

	private JsonNode dependency(String name) {
		HttpResponse<String> response = this.shop.get("/demo/dependencies/" + name);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json(response);
	}

	private URI url(String name) {
		return URI.create(dependency(name).get("url").asString());
	}

	private HttpResponse<String> get(String dependency, String path) throws IOException, InterruptedException {
		return get(dependency, path, BOUND);
	}

	private HttpResponse<String> get(String dependency, String path, Duration timeout)
			throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url(dependency) + path)).timeout(timeout).build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
