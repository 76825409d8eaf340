package dev.degradation.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.client.DependencyGuards;
import dev.degradation.client.GuardingExchangeFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every condition of {@link DegradationWebClientAutoConfiguration}, in a servlet application (where
 * the guards are configured today): a Boot-built {@code WebClient.Builder} gets the guard;
 * without Resilience4j's Reactor operators, without the guards or without {@code WebClient}
 * nothing is added and nothing breaks.
 */
class DegradationWebClientAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
				DegradationClientAutoConfiguration.class, DegradationWebClientAutoConfiguration.class,
				ReactiveHttpClientAutoConfiguration.class, WebClientAutoConfiguration.class))
		.withPropertyValues("degradation.manifest=classpath:client/degradation-manifest.yaml",
				"degradation.probes.enabled=false", "stub.url=http://127.0.0.1:9");

	@Test
	void aBootBuiltWebClientBuilderGetsTheGuard() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(DependencyGuards.class).hasBean("degradationWebClientCustomizer");
			assertThat(filters(context)).singleElement().isInstanceOf(GuardingExchangeFilter.class);
			// A prototype: each builder gets a filter of its own.
			assertThat(filters(context).get(0)).isNotSameAs(filters(context).get(0));
		});
	}

	@Test
	void withoutResilience4jsReactorOperatorsWebClientsAreLeftAloneAndRestClientsStillGuarded() {
		this.runner.withClassLoader(new FilteredClassLoader(CircuitBreakerOperator.class)).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(DependencyGuards.class)
				.doesNotHaveBean(DegradationWebClientAutoConfiguration.class)
				.hasSingleBean(WebClient.Builder.class);
			assertThat(filters(context)).isEmpty();
		});
	}

	@Test
	void withoutResilience4jTheWebClientCustomizerBacksOffWithTheGuards() {
		this.runner.withClassLoader(new FilteredClassLoader(CircuitBreaker.class)).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(DependencyGuards.class)
				.doesNotHaveBean(DegradationWebClientAutoConfiguration.class);
			assertThat(filters(context)).isEmpty();
		});
	}

	@Test
	void theWebClientCustomizerCanBeSwitchedOff() {
		this.runner.withPropertyValues("degradation.client.customizers.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("degradationWebClientCustomizer"));
	}

	@Test
	void withoutWebClientNothingIsConfigured() {
		this.runner.withClassLoader(new FilteredClassLoader(WebClient.class, WebClientCustomizer.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(DependencyGuards.class)
				.doesNotHaveBean(DegradationWebClientAutoConfiguration.class));
	}

	@Test
	void aCustomizerOfTheSameNameReplacesTheStartersOwn() {
		this.runner
			.withBean("degradationWebClientCustomizer", WebClientCustomizer.class, () -> (builder) -> {
			})
			.run((context) -> assertThat(filters(context)).isEmpty());
	}

	@Test
	void theApplicationsOwnWebClientsGetTheGuardOnceAndFirstAmongTheirFilters() {
		ExchangeFilterFunction own = (request, next) -> next.exchange(request);
		this.runner.withBean("myBuilder", WebClient.Builder.class, () -> WebClient.builder().filter(own))
			.withBean("myClient", WebClient.class, () -> WebClient.builder().filter(own).build())
			.run((context) -> {
				// Boot's builder backs off for the application's own.
				assertThat(filters(context)).satisfiesExactly(
						(first) -> assertThat(first).isInstanceOf(GuardingExchangeFilter.class),
						(second) -> assertThat(second).isSameAs(own));
				List<ExchangeFilterFunction> clientFilters = new ArrayList<>();
				context.getBean(WebClient.class).mutate().filters(clientFilters::addAll);
				assertThat(clientFilters).hasSize(2).first().isInstanceOf(GuardingExchangeFilter.class);
			});
		this.runner.withPropertyValues("degradation.client.customizers.enabled=false")
			.withBean("myBuilder", WebClient.Builder.class, WebClient::builder)
			.run((context) -> assertThat(filters(context)).isEmpty());
	}

	private static List<ExchangeFilterFunction> filters(AssertableWebApplicationContext context) {
		List<ExchangeFilterFunction> filters = new ArrayList<>();
		context.getBean(WebClient.Builder.class).filters(filters::addAll);
		return filters;
	}

}
