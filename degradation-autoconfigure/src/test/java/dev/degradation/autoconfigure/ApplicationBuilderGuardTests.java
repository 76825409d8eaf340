package dev.degradation.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.client.GuardingExchangeFilter;
import dev.degradation.client.GuardingInterceptor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code RestClient.Builder} or {@code WebClient.Builder} bean the application defines itself
 * (a {@code @LoadBalanced} one, which Boot's customizers never reach) gets the guard first among
 * its interceptors or filters, before one the application (or Spring Cloud's load balancer, before
 * initialization) added; Boot's own builders are left to their customizers (one guard each, and
 * none where a customizer replaced the starter's).
 */
class ApplicationBuilderGuardTests {

	private static final ClientHttpRequestInterceptor LOAD_BALANCER = (request, body, execution) -> execution
		.execute(request, body);

	private static final ExchangeFilterFunction LOAD_BALANCER_FILTER = (request, next) -> next.exchange(request);

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
				DegradationClientAutoConfiguration.class, DegradationWebClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				ReactiveHttpClientAutoConfiguration.class, WebClientAutoConfiguration.class))
		.withPropertyValues("degradation.manifest=classpath:client/degradation-manifest.yaml",
				"degradation.probes.enabled=false", "stub.url=http://127.0.0.1:9");

	@Test
	void anApplicationsRestClientBuilderGetsTheGuardFirst() {
		this.runner
			.withBean("loadBalancedRestClientBuilder", RestClient.Builder.class,
					() -> RestClient.builder().requestInterceptor(LOAD_BALANCER))
			.run((context) -> {
				List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>();
				context.getBean("loadBalancedRestClientBuilder", RestClient.Builder.class)
					.requestInterceptors(interceptors::addAll);
				assertThat(interceptors).hasSize(2).first().isInstanceOf(GuardingInterceptor.class);
				assertThat(interceptors.get(1)).isSameAs(LOAD_BALANCER);
			});
	}

	@Test
	void anApplicationsWebClientBuilderGetsTheGuardFirst() {
		this.runner
			.withBean("loadBalancedWebClientBuilder", WebClient.Builder.class,
					() -> WebClient.builder().filter(LOAD_BALANCER_FILTER))
			.run((context) -> {
				List<ExchangeFilterFunction> filters = new ArrayList<>();
				context.getBean("loadBalancedWebClientBuilder", WebClient.Builder.class).filters(filters::addAll);
				assertThat(filters).hasSize(2).first().isInstanceOf(GuardingExchangeFilter.class);
				assertThat(filters.get(1)).isSameAs(LOAD_BALANCER_FILTER);
			});
	}

	@Test
	void bootsBuildersAreLeftToTheirCustomizers() {
		this.runner.withBean("degradationWebClientCustomizer", WebClientCustomizer.class, () -> (builder) -> {
		}).run((context) -> {
			List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>();
			context.getBean("restClientBuilder", RestClient.Builder.class).requestInterceptors(interceptors::addAll);
			assertThat(interceptors).singleElement().isInstanceOf(GuardingInterceptor.class);
			// The customizer that replaced the starter's decides for Boot's WebClient builder.
			List<ExchangeFilterFunction> filters = new ArrayList<>();
			context.getBean("webClientBuilder", WebClient.Builder.class).filters(filters::addAll);
			assertThat(filters).isEmpty();
		});
	}

}
