package dev.degradation.stacks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.fixture.ReceivedRequest;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On WebFlux, what a request's guarded {@code WebClient} calls carry on travels in the Reactor
 * context, not in a thread-local: the priority the request is served at (its route's tier,
 * lowered by its caller's, never raised) and the time its caller still waits. Checked by what a
 * real loopback dependency receives.
 */
@SpringBootTest(classes = ReactiveCallContextTests.RelayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"degradation.manifest=classpath:manifests/stacks-calls.yaml", "degradation.priority.enabled=true",
				"degradation.deadline.header=X-Deadline-Ms" })
class ReactiveCallContextTests {

	private static final LoopbackDependency downstream = LoopbackDependency.start()
		.answer(Answer.status(200).body("relayed"));

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
		downstream.forget();
	}

	@Test
	void aCallCarriesThePriorityOfTheRouteItIsMadeFor() throws Exception {
		assertThat(get("/api/relay").body()).isEqualTo("relayed");
		assertThat(get("/api/relay-enhanced").body()).isEqualTo("relayed");
		assertThat(received()).extracting((headers) -> headers.get("x-degradation-priority")).containsExactly("1", "5");
	}

	@Test
	void aCallerCanLowerThePriorityButNeverRaiseIt() throws Exception {
		get("/api/relay-enhanced", "X-Degradation-Priority", "1");
		get("/api/relay-enhanced", "X-Degradation-Priority", "core");
		get("/api/relay", "X-Degradation-Priority", "1000");
		assertThat(received()).extracting((headers) -> headers.get("x-degradation-priority"))
			.containsExactly("1", "5", "1");
	}

	@Test
	void aCallCarriesTheTimeItsCallerStillWaits() throws Exception {
		get("/api/relay", "X-Deadline-Ms", "3000");
		get("/api/relay");
		assertThat(Long.parseLong(received().get(0).get("x-deadline-ms"))).isBetween(1L, 3000L);
		assertThat(Long.parseLong(received().get(1).get("x-deadline-ms"))).as("the call's own limit, without one")
			.isBetween(3001L, 5000L);
	}

	private HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10));
		if (headers.length > 0) {
			request.headers(headers);
		}
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** The headers of each request the downstream received, by lower-case name. */
	private static List<Map<String, String>> received() {
		return downstream.received().stream().map(ReceivedRequest::headers).toList();
	}

	@UnsecuredTestConfiguration
	static class RelayApplication {

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
			return this.client.get().uri(this.base + "/work").retrieve().bodyToMono(String.class);
		}

		@GetMapping("/api/relay-enhanced")
		Mono<String> relayEnhanced() {
			return relay();
		}

	}

}
