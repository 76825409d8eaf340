package dev.degradation.sample.embedded;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * One embedded dependency's modes over its life: requests held without threads, answered by the
 * next mode or released when it stops, and its port closed and bound again.
 */
class EmbeddedDependencyTests {

	private static final Duration BOUND = Duration.ofSeconds(10);

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final EmbeddedDependency dependency = EmbeddedDependency.start(EmbeddedDependency.RECOMMENDATIONS_API,
			Duration.ofMillis(300));

	@AfterEach
	void stopDependency() {
		this.dependency.stop();
	}

	@Test
	void hangingDependencyHoldsManyRequestsOnAFixedNumberOfThreads() {
		this.dependency.switchTo(DependencyMode.HANGING);
		List<CompletableFuture<HttpResponse<String>>> calls = IntStream.range(0, 40).mapToObj((i) -> healthAsync()).toList();
		await().atMost(BOUND).until(() -> this.dependency.heldRequests() == 40);
		assertThat(calls).noneMatch(CompletableFuture::isDone);
		// Two handler threads, and no timer thread yet since nothing is slow.
		assertThat(liveThreads()).isLessThanOrEqualTo(2);
	}

	@Test
	void requestsHeldByAHangingDependencyAreAnsweredByTheModeItSwitchesTo() {
		this.dependency.switchTo(DependencyMode.HANGING);
		CompletableFuture<HttpResponse<String>> first = healthAsync();
		await().atMost(BOUND).until(() -> this.dependency.heldRequests() == 1);
		this.dependency.switchTo(DependencyMode.FAILING);
		assertThat(first).succeedsWithin(BOUND).extracting(HttpResponse::statusCode).isEqualTo(500);
		this.dependency.switchTo(DependencyMode.HANGING);
		CompletableFuture<HttpResponse<String>> second = healthAsync();
		await().atMost(BOUND).until(() -> this.dependency.heldRequests() == 1);
		this.dependency.switchTo(DependencyMode.HEALTHY);
		assertThat(second).succeedsWithin(BOUND).extracting(HttpResponse::statusCode).isEqualTo(200);
		assertThat(this.dependency.heldRequests()).isZero();
	}

	@Test
	void slowDependencyAnswersHealthyAfterItsDelay() {
		this.dependency.switchTo(DependencyMode.SLOW);
		long start = System.nanoTime();
		assertThat(healthAsync()).succeedsWithin(BOUND).extracting(HttpResponse::statusCode).isEqualTo(200);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
	}

	@Test
	void slowRequestsAreAnsweredAtOnceWhenTheDependencyBecomesHealthy() {
		EmbeddedDependency verySlow = EmbeddedDependency.start(EmbeddedDependency.PERSONALIZATION_SERVICE,
				Duration.ofHours(1));
		try {
			verySlow.switchTo(DependencyMode.SLOW);
			CompletableFuture<HttpResponse<String>> call = sendAsync(verySlow.url() + "/healthz");
			await().atMost(BOUND).until(() -> verySlow.heldRequests() == 1);
			verySlow.switchTo(DependencyMode.HEALTHY);
			assertThat(call).succeedsWithin(BOUND).extracting(HttpResponse::statusCode).isEqualTo(200);
		}
		finally {
			verySlow.stop();
		}
	}

	@Test
	void stoppingReleasesEveryHeldRequestAndEndsEveryThread() {
		this.dependency.switchTo(DependencyMode.HANGING);
		List<CompletableFuture<HttpResponse<String>>> calls = IntStream.range(0, 5).mapToObj((i) -> healthAsync()).toList();
		await().atMost(BOUND).until(() -> this.dependency.heldRequests() == 5);
		this.dependency.stop();
		for (CompletableFuture<HttpResponse<String>> call : calls) {
			assertThat(call).failsWithin(BOUND).withThrowableThat().havingRootCause().isInstanceOf(IOException.class);
		}
		await().atMost(BOUND).until(() -> liveThreads() == 0);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.dependency.switchTo(DependencyMode.HEALTHY))
			.withMessageContaining("stopped");
	}

	@Test
	void refusingClosesThePortAndHealthyListensOnTheSamePortAgain() throws Exception {
		int port = this.dependency.port();
		this.dependency.switchTo(DependencyMode.REFUSING);
		assertThatExceptionOfType(ConnectException.class).isThrownBy(this::health);
		this.dependency.switchTo(DependencyMode.HEALTHY);
		assertThat(this.dependency.port()).isEqualTo(port);
		assertThat(health().statusCode()).isEqualTo(200);
	}

	@Test
	void refusingDropsTheConnectionsOfHeldRequests() {
		this.dependency.switchTo(DependencyMode.HANGING);
		CompletableFuture<HttpResponse<String>> call = healthAsync();
		await().atMost(BOUND).until(() -> this.dependency.heldRequests() == 1);
		this.dependency.switchTo(DependencyMode.REFUSING);
		assertThat(call).failsWithin(BOUND).withThrowableThat().havingRootCause().isInstanceOf(IOException.class);
		assertThat(this.dependency.heldRequests()).isZero();
	}

	@Test
	void whenThePortIsTakenWhileRefusingTheDependencyStaysRefusingUntilItIsFree() throws Exception {
		this.dependency.switchTo(DependencyMode.REFUSING);
		try (ServerSocket squatter = new ServerSocket()) {
			squatter.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.dependency.port()));
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> this.dependency.switchTo(DependencyMode.HEALTHY))
				.withMessageContaining("cannot listen on 127.0.0.1:" + this.dependency.port() + " again");
			assertThat(this.dependency.mode()).isEqualTo(DependencyMode.REFUSING);
		}
		this.dependency.switchTo(DependencyMode.HEALTHY);
		assertThat(health().statusCode()).isEqualTo(200);
	}

	@Test
	void switchingToTheCurrentModeKeepsItsHeldRequests() {
		this.dependency.switchTo(DependencyMode.HANGING);
		healthAsync();
		await().atMost(BOUND).until(() -> this.dependency.heldRequests() == 1);
		this.dependency.switchTo(DependencyMode.HANGING);
		assertThat(this.dependency.heldRequests()).isEqualTo(1);
	}

	private HttpResponse<String> health() throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create(this.dependency.url() + "/healthz"))
			.timeout(BOUND)
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private CompletableFuture<HttpResponse<String>> healthAsync() {
		return sendAsync(this.dependency.url() + "/healthz");
	}

	private CompletableFuture<HttpResponse<String>> sendAsync(String url) {
		return this.http.sendAsync(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private long liveThreads() {
		String prefix = this.dependency.threadNamePrefix();
		return Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> thread.getName().startsWith(prefix) && thread.isAlive())
			.count();
	}

}
