package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.overload.RequestPriority;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On WebFlux with {@code spring.reactor.context-propagation=auto}, the deadline and priority of
 * a request cross a {@code publishOn} hop: after it the handler's thread holds them as its
 * {@link CallDeadline} and {@link RequestPriority} (Reactor restores them from the request's
 * context through their registered accessors), and the guarded {@code WebClient} call made there
 * passes them on, as a real loopback dependency receives them.
 */
@SpringBootTest(classes = ReactiveHopCallContextTests.HopRelayApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "spring.reactor.context-propagation=auto",
				"degradation.manifest=classpath:manifests/stacks-calls.yaml", "degradation.priority.enabled=true",
				"degradation.deadline.header=X-Deadline-Ms" })
class ReactiveHopCallContextTests {

	private static final List<String> afterHop = new CopyOnWriteArrayList<>();

	/** What the loopback dependency answers, relayed as it is. */
	private static final String LIVE = "{\"source\":\"live\"}";

	private static final LoopbackStub downstream = LoopbackStub.start();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void downstreamUrl(DynamicPropertyRegistry registry) {
		registry.add("test.downstream.url", downstream::url);
	}

	@AfterAll
	static void stop() {
		downstream.close();
	}

	@BeforeEach
	void forget() {
		downstream.requests.clear();
		afterHop.clear();
	}

	@Test
	void theDeadlineAndThePriorityCrossAPublishOnHop() throws Exception {
		HttpResponse<String> response = get("/api/relay", "X-Deadline-Ms", "700");
		assertThat(response.body()).isEqualTo(LIVE);
		assertThat(afterHop).singleElement().asString().startsWith("boundedElastic-").contains("deadline=true")
			.contains("priority=1");
		assertThat(downstream.requests).singleElement()
			.extracting(LoopbackStub.HttpExchangeRecord::headers)
			.satisfies((headers) -> {
				assertThat(Long.parseLong(headers.get("x-deadline-ms"))).isBetween(1L, 700L);
				assertThat(headers.get("x-degradation-priority")).isEqualTo("1");
			});
	}

	@Test
	void withoutADeadlineNoneIsRestoredAfterTheHop() throws Exception {
		get("/api/relay-enhanced");
		assertThat(afterHop).singleElement().asString().contains("deadline=false").contains("priority=5");
		assertThat(downstream.requests).singleElement()
			.extracting(LoopbackStub.HttpExchangeRecord::headers)
			.satisfies((headers) -> {
				assertThat(Long.parseLong(headers.get("x-deadline-ms"))).isBetween(3001L, 5000L);
				assertThat(headers.get("x-degradation-priority")).isEqualTo("5");
			});
	}

	private HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10));
		if (headers.length > 0) {
			request.headers(headers);
		}
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@UnsecuredTestConfiguration
	static class HopRelayApplication {

		@Bean
		RelayController relayController(WebClient.Builder builder) {
			return new RelayController(builder.build());
		}

	}

	@RestController
	static class RelayController {

		private final WebClient client;

		private final String base = downstream.url();

		RelayController(WebClient client) {
			this.client = client;
		}

		@GetMapping("/api/relay")
		Mono<String> relay() {
			return Mono.just("hop").publishOn(Schedulers.boundedElastic()).handle((hop, sink) -> {
				// What this thread holds after the hop: only Reactor's automatic propagation,
				// through the registered accessors, puts the request's values here.
				Instant deadline = CallDeadline.current();
				afterHop.add(Thread.currentThread().getName() + " deadline=" + (deadline != null) + " priority="
						+ RequestPriority.current());
				sink.next(hop);
			}).flatMap((hop) -> this.client.get().uri(this.base + "/work").retrieve().bodyToMono(String.class));
		}

		@GetMapping("/api/relay-enhanced")
		Mono<String> relayEnhanced() {
			return relay();
		}

	}

}
