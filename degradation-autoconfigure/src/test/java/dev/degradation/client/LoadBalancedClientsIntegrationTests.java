package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application's own {@code @LoadBalanced} clients with a real Spring Cloud LoadBalancer and
 * its simple discovery client, on a real embedded server: the guard comes before the load
 * balancer, so it sees the service id the application called ({@code http://inventory-service/...},
 * the dependency's {@code base_url}) and not the instance the load balancer picks. A call to a
 * service whose instance answers reaches it with the guard's deadline (which only a guarded call
 * carries); a call to a service whose only instance refuses connections answers the route's
 * fallback from the first failed call, not a 500.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:client/load-balanced-manifest.yaml",
				"degradation.probes.enabled=false",
				"spring.cloud.discovery.client.simple.instances.pricing-service[0].uri=http://127.0.0.1:9" })
class LoadBalancedClientsIntegrationTests {

	private static final LoopbackStub instance = LoopbackStub.start();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void instanceUrl(DynamicPropertyRegistry registry) {
		registry.add("spring.cloud.discovery.client.simple.instances.inventory-service[0].uri", instance::url);
	}

	@BeforeAll
	static void warmUpReactorNetty() {
		instance.warmUpReactorNetty();
	}

	@AfterAll
	static void stopInstance() {
		instance.close();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "rest-client", "web-client", "rest-template" })
	void aCallByServiceIdIsGuardedBeforeTheLoadBalancerPicksAnInstance(String client) throws Exception {
		instance.answer(200, null);
		HttpResponse<String> response = get("/api/inventory/" + client);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
		assertThat(response.body()).isEqualTo("{\"source\":\"live\"}");
		// The load balancer sent it to the instance, with the deadline only the guard sets.
		assertThat(instance.requests).singleElement().satisfies((request) -> {
			assertThat(request.path()).isEqualTo("/items");
			assertThat(request.deadline()).isNotNull();
		});
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "rest-client", "web-client", "rest-template" })
	void aServiceWhoseInstanceRefusesAnswersTheRoutesFallbackFromTheFirstFailedCall(String client)
			throws Exception {
		HttpResponse<String> response = get("/api/pricing/" + client);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:pricing");
		assertThat(response.body()).isEqualTo("{\"source\":\"degraded\"}");
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	@UnsecuredTestConfiguration
	static class LoadBalancedClients {

		@Bean
		@LoadBalanced
		RestClient.Builder loadBalancedRestClientBuilder() {
			return RestClient.builder();
		}

		@Bean
		@LoadBalanced
		WebClient.Builder loadBalancedWebClientBuilder() {
			return WebClient.builder();
		}

		@Bean
		@LoadBalanced
		RestTemplate loadBalancedRestTemplate() {
			return new RestTemplate();
		}

		@Bean
		ServicesController servicesController(RestClient.Builder loadBalancedRestClientBuilder,
				WebClient.Builder loadBalancedWebClientBuilder, RestTemplate loadBalancedRestTemplate) {
			return new ServicesController(loadBalancedRestClientBuilder.build(), loadBalancedWebClientBuilder.build(),
					loadBalancedRestTemplate);
		}

	}

	@RestController
	static class ServicesController {

		private final RestClient restClient;

		private final WebClient webClient;

		private final RestTemplate restTemplate;

		ServicesController(RestClient restClient, WebClient webClient, RestTemplate restTemplate) {
			this.restClient = restClient;
			this.webClient = webClient;
			this.restTemplate = restTemplate;
		}

		@GetMapping("/api/{service}/{client}")
		String call(@PathVariable String service, @PathVariable String client) {
			String url = "http://" + service + "-service/items";
			return switch (client) {
				case "rest-client" -> this.restClient.get().uri(url).retrieve().body(String.class);
				case "web-client" -> this.webClient.get().uri(url).retrieve().bodyToMono(String.class).block();
				default -> this.restTemplate.getForObject(url, String.class);
			};
		}

	}

}
