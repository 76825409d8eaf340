package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On Spring MVC, a guarded {@code RestClient} call made from an {@code @Async} method, on
 * another thread than the request's, carries the request's deadline and priority on: Micrometer's
 * context-propagation takes them there through Spring's {@code ContextPropagatingTaskDecorator}
 * (a bean, which Boot puts on its task executor), with no code of the starter's or the
 * application's. Checked by what a real loopback dependency receives.
 */
@SpringBootTest(classes = AsyncCallContextTests.AsyncRelayApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"degradation.manifest=classpath:manifests/stacks-calls.yaml", "degradation.priority.enabled=true",
				"degradation.deadline.header=X-Deadline-Ms" })
class AsyncCallContextTests {

	private static final List<String> callingThreads = new CopyOnWriteArrayList<>();

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
		callingThreads.clear();
	}

	@Test
	void anAsyncCallCarriesTheDeadlineAndThePriorityOfItsRequest() throws Exception {
		HttpResponse<String> response = get("/api/relay", "X-Deadline-Ms", "700");
		assertThat(response.body()).isEqualTo(LIVE);
		assertThat(callingThreads).singleElement().asString().startsWith("task-");
		assertThat(downstream.requests).singleElement()
			.extracting(LoopbackStub.HttpExchangeRecord::headers)
			.satisfies((headers) -> {
				assertThat(Long.parseLong(headers.get("x-deadline-ms"))).isBetween(1L, 700L);
				assertThat(headers.get("x-degradation-priority")).isEqualTo("1");
			});
	}

	@Test
	void anAsyncCallForARequestWithoutADeadlineGetsItsOwnLimit() throws Exception {
		get("/api/relay-enhanced");
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
	@EnableAsync
	static class AsyncRelayApplication {

		@Bean
		ContextPropagatingTaskDecorator contextPropagatingTaskDecorator() {
			return new ContextPropagatingTaskDecorator();
		}

		@Bean
		AsyncRelay asyncRelay(RestClient.Builder builder) {
			return new AsyncRelay(builder.build());
		}

		@Bean
		RelayController relayController(AsyncRelay relay) {
			return new RelayController(relay);
		}

	}

	static class AsyncRelay {

		private final RestClient client;

		AsyncRelay(RestClient client) {
			this.client = client;
		}

		@Async
		public CompletableFuture<String> relay() {
			callingThreads.add(Thread.currentThread().getName());
			String base = downstream.url();
			return CompletableFuture.completedFuture(this.client.get().uri(base + "/work").retrieve().body(String.class));
		}

	}

	@RestController
	static class RelayController {

		private final AsyncRelay relay;

		RelayController(AsyncRelay relay) {
			this.relay = relay;
		}

		@GetMapping("/api/relay")
		String relay() {
			return this.relay.relay().join();
		}

		@GetMapping("/api/relay-enhanced")
		String relayEnhanced() {
			return this.relay.relay().join();
		}

	}

}
