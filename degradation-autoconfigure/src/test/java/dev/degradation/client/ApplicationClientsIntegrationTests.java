package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.support.HttpRequestWrapper;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.util.UriComponentsBuilder;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clients an application defines itself as beans, so that Boot's builders back off (as a
 * {@code @LoadBalanced} builder does), get the guard: a dependency that refuses every connection
 * answers the route that requires it with its declared fallback from the first failed call, not
 * a 500, on a real embedded server. Each client calls the dependency by its service id
 * ({@code http://inventory-service/...}, the dependency's {@code base_url}); a stand-in for Spring
 * Cloud LoadBalancer, attached as LoadBalancer attaches itself (an interceptor or a filter added
 * to the builder beans before their initialization, to the {@code RestTemplate}s once every
 * singleton exists), rewrites the service id to an instance, {@code 127.0.0.1:9} where nothing
 * listens: a guard that came after it would see the instance, match no dependency and let the
 * failure through as the application's 500.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:client/application-clients-manifest.yaml",
				"degradation.probes.enabled=false" })
class ApplicationClientsIntegrationTests {

	/** Where the stand-in load balancer sends every call to the service: nothing listens. */
	private static final String INSTANCE = "http://127.0.0.1:9";

	private static final AtomicInteger resolved = new AtomicInteger();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@BeforeAll
	static void warmUpReactorNetty() {
		// The first WebClient call of the JVM loads Reactor Netty: not what is measured here.
		LoopbackStub stub = LoopbackStub.start();
		try {
			stub.warmUpReactorNetty();
		}
		finally {
			stub.close();
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "rest-client-builder", "web-client-builder", "rest-template", "rest-client",
			"web-client" })
	void aClientTheApplicationDefinesItselfAnswersTheRoutesFallbackFromTheFirstFailedCall(String client)
			throws Exception {
		int resolvedBefore = resolved.get();
		HttpResponse<String> response = get("/api/" + client);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
		assertThat(response.headers().firstValue("X-Degradation-Reason")).hasValue("dependency:inventory");
		assertThat(response.body()).isEqualTo("{\"source\":\"degraded\"}");
		// The call went through the stand-in load balancer, after the guard had seen the service id.
		assertThat(resolved.get()).isGreaterThan(resolvedBefore);
		// The guard's refusal of this one call, not the engine's shedding.
		assertThat(this.engine.state().shedsAnything()).isFalse();
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI instance(URI logical) {
		resolved.incrementAndGet();
		return UriComponentsBuilder.fromUri(logical).uri(URI.create(INSTANCE)).build(true).toUri();
	}

	/** The stand-in load balancer's interceptor: the service id becomes an instance. */
	static ClientHttpRequestInterceptor resolvingInterceptor() {
		return (request, body, execution) -> execution.execute(new HttpRequestWrapper(request) {

			@Override
			public URI getURI() {
				return instance(super.getURI());
			}

		}, body);
	}

	/** The stand-in load balancer's filter. */
	static ExchangeFilterFunction resolvingFilter() {
		return (request, next) -> next.exchange(ClientRequest.from(request).url(instance(request.url())).build());
	}

	@UnsecuredTestConfiguration
	static class ApplicationClients {

		private static final String SERVICE = "http://inventory-service";

		/** Attached to the builder beans as Spring Cloud LoadBalancer attaches itself. */
		@Bean
		static BeanPostProcessor standInLoadBalancer() {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessBeforeInitialization(Object bean, String beanName) {
					if (bean instanceof RestClient.Builder builder && beanName.startsWith("loadBalanced")) {
						builder.requestInterceptor(resolvingInterceptor());
					}
					if (bean instanceof WebClient.Builder builder && beanName.startsWith("loadBalanced")) {
						builder.filter(resolvingFilter());
					}
					return bean;
				}

			};
		}

		/** As LoadBalancer's {@code RestTemplateCustomizer}, once every singleton exists. */
		@Bean
		static SmartInitializingSingleton standInLoadBalancedRestTemplates(
				@Qualifier("loadBalancedRestTemplate") ObjectProvider<RestTemplate> templates) {
			return () -> templates.ifAvailable((template) -> {
				List<ClientHttpRequestInterceptor> interceptors = new java.util.ArrayList<>(template.getInterceptors());
				interceptors.add(resolvingInterceptor());
				template.setInterceptors(interceptors);
			});
		}

		@Bean
		RestClient.Builder loadBalancedRestClientBuilder() {
			return RestClient.builder();
		}

		@Bean
		WebClient.Builder loadBalancedWebClientBuilder() {
			return WebClient.builder();
		}

		@Bean
		RestTemplate loadBalancedRestTemplate() {
			return new RestTemplate();
		}

		/** A client bean built without any builder bean: no customizer of Boot's saw it. */
		@Bean
		RestClient inventoryRestClient() {
			return RestClient.builder().baseUrl(SERVICE).requestInterceptor(resolvingInterceptor()).build();
		}

		@Bean
		WebClient inventoryWebClient() {
			return WebClient.builder().baseUrl(SERVICE).filter(resolvingFilter()).build();
		}

		@Bean
		InventoryController inventoryController(RestClient.Builder loadBalancedRestClientBuilder,
				WebClient.Builder loadBalancedWebClientBuilder, RestTemplate loadBalancedRestTemplate,
				RestClient inventoryRestClient, WebClient inventoryWebClient) {
			return new InventoryController(loadBalancedRestClientBuilder.baseUrl(SERVICE).build(),
					loadBalancedWebClientBuilder.baseUrl(SERVICE).build(), loadBalancedRestTemplate,
					inventoryRestClient, inventoryWebClient);
		}

	}

	@RestController
	static class InventoryController {

		private final RestClient fromBuilder;

		private final WebClient webFromBuilder;

		private final RestTemplate template;

		private final RestClient restClient;

		private final WebClient webClient;

		InventoryController(RestClient fromBuilder, WebClient webFromBuilder, RestTemplate template,
				RestClient restClient, WebClient webClient) {
			this.fromBuilder = fromBuilder;
			this.webFromBuilder = webFromBuilder;
			this.template = template;
			this.restClient = restClient;
			this.webClient = webClient;
		}

		@GetMapping("/api/rest-client-builder")
		String restClientBuilder() {
			return this.fromBuilder.get().uri("/items").retrieve().body(String.class);
		}

		@GetMapping("/api/web-client-builder")
		String webClientBuilder() {
			return this.webFromBuilder.get().uri("/items").retrieve().bodyToMono(String.class).block();
		}

		@GetMapping("/api/rest-template")
		String restTemplate() {
			return this.template.getForObject("http://inventory-service/items", String.class);
		}

		@GetMapping("/api/rest-client")
		String restClient() {
			return this.restClient.get().uri("/items").retrieve().body(String.class);
		}

		@GetMapping("/api/web-client")
		String webClient() {
			return this.webClient.get().uri("/items").retrieve().bodyToMono(String.class).block();
		}

	}

}
