package dev.degradation.autoconfigure;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import dev.degradation.client.CallDeadlineFilter;
import dev.degradation.client.DependencyGuards;
import dev.degradation.client.GuardedCallRetryStrategy;
import dev.degradation.client.GuardingInterceptor;
import dev.degradation.engine.DegradationEngine;

/**
 * Guards the application's own calls to the manifest's dependencies with Resilience4j: a
 * {@link DependencyGuards} bean (the API), an interceptor on every {@code RestClient} built from
 * Boot's builder, and the filter that reads a request's deadline. Uses Resilience4j's registries
 * when {@code resilience4j-spring-boot4} defines them, so its endpoints, health and metrics show
 * the starter's breakers; creates its own otherwise.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class,
		afterName = { "io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration",
				"io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration",
				"io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration" })
@ConditionalOnClass({ CircuitBreaker.class, Retry.class, TimeLimiter.class })
@ConditionalOnBean(DegradationEngine.class)
public final class DegradationClientAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DependencyGuards degradationDependencyGuards(DegradationEngine engine,
			ObjectProvider<CircuitBreakerRegistry> breakers, ObjectProvider<TimeLimiterRegistry> timeLimiters,
			ObjectProvider<RetryRegistry> retries) {
		return new DependencyGuards(engine, breakers.getIfAvailable(CircuitBreakerRegistry::ofDefaults),
				timeLimiters.getIfAvailable(TimeLimiterRegistry::ofDefaults),
				retries.getIfAvailable(RetryRegistry::ofDefaults));
	}

	@Bean
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnMissingBean(name = "degradationCallDeadlineFilter")
	FilterRegistrationBean<CallDeadlineFilter> degradationCallDeadlineFilter(DegradationEngine engine,
			DegradationProperties properties) {
		CallDeadlineFilter filter = new CallDeadlineFilter(properties.getDeadline().getHeader(),
				properties.getDeadline().getMax(), engine.clock());
		FilterRegistrationBean<CallDeadlineFilter> registration = new FilterRegistrationBean<>(filter);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
		return registration;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RestClientCustomizer.class)
	static class RestClientConfiguration {

		@Bean
		RestClientCustomizer degradationRestClientCustomizer(DependencyGuards guards, DegradationEngine engine,
				DegradationProperties properties) {
			GuardingInterceptor interceptor = new GuardingInterceptor(guards,
					properties.getDeadline().getHeader(), engine.clock());
			return (builder) -> builder.requestInterceptor(interceptor);
		}

	}

	/**
	 * With Apache HttpClient as the request factory, leaves the retries of guarded calls to their
	 * guards: HttpClient's own would wait a 503's {@code Retry-After} uncapped inside one attempt.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HttpClientBuilder.class, ClientHttpRequestFactoryBuilderCustomizer.class })
	static class HttpComponentsConfiguration {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> degradationHttpComponentsRetryCustomizer(
				DependencyGuards guards) {
			GuardedCallRetryStrategy strategy = new GuardedCallRetryStrategy(guards);
			return (builder) -> builder.withHttpClientCustomizer((client) -> client.setRetryStrategy(strategy));
		}

	}

}
