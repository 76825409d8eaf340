package dev.degradation.autoconfigure;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import reactor.netty.http.client.HttpClient;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.ReactorClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;
import org.springframework.web.client.RestClient;

import dev.degradation.client.CallDeadlineFilter;
import dev.degradation.client.CallDeadlineWebFilter;
import dev.degradation.client.DependencyGuards;
import dev.degradation.client.GuardExecutor;
import dev.degradation.client.GuardedCallRetryStrategy;
import dev.degradation.client.GuardingInterceptor;
import dev.degradation.client.HttpComponentsAttemptTimeout;
import dev.degradation.client.JdkAttemptTimeout;
import dev.degradation.client.ReactorAttemptTimeout;
import dev.degradation.engine.DegradationEngine;

/**
 * Guards the application's own calls to the manifest's dependencies with Resilience4j: a
 * {@link DependencyGuards} bean (the API), an interceptor on every {@code RestClient} built from
 * Boot's builder, and the filter that reads a request's deadline. Uses Resilience4j's registries
 * when {@code resilience4j-spring-boot4} defines them, so its endpoints, health and metrics show
 * the starter's breakers; creates its own otherwise. Calls whose HTTP client enforces the
 * attempt's time limit itself run on their caller's thread: this configuration makes Apache
 * HttpClient, the JDK's {@code HttpClient} and Reactor Netty do so, when Boot builds the request
 * factory. Other calls (another client, code guarded through the API) run on a bounded
 * {@link GuardExecutor}, of virtual threads when the application runs on them.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class,
		afterName = { "io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration",
				"io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration",
				"io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration" })
@ConditionalOnClass({ CircuitBreaker.class, Retry.class, TimeLimiter.class })
@ConditionalOnBean(DegradationEngine.class)
@EnableConfigurationProperties(DegradationClientProperties.class)
public final class DegradationClientAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	GuardExecutor degradationGuardExecutor(DegradationClientProperties properties, Environment environment) {
		if (Threading.VIRTUAL.isActive(environment)) {
			return GuardExecutor.of(new VirtualThreadTaskExecutor("degradation-call-"),
					properties.getMaxThreadedCalls());
		}
		return GuardExecutor.platformThreads(properties.getMaxThreadedCalls());
	}

	@Bean
	@ConditionalOnMissingBean
	DependencyGuards degradationDependencyGuards(DegradationEngine engine,
			ObjectProvider<CircuitBreakerRegistry> breakers, ObjectProvider<TimeLimiterRegistry> timeLimiters,
			ObjectProvider<RetryRegistry> retries, GuardExecutor executor) {
		return new DependencyGuards(engine, breakers.getIfAvailable(CircuitBreakerRegistry::ofDefaults),
				timeLimiters.getIfAvailable(TimeLimiterRegistry::ofDefaults),
				retries.getIfAvailable(RetryRegistry::ofDefaults), executor);
	}

	/**
	 * The filter that reads a servlet request's deadline. In a nested class of its own: its bean
	 * method's types name the servlet API, which a reactive application may not have, and
	 * introspecting the outer class would then fail.
	 */
	/**
	 * In a reactive application (WebFlux, a gateway) the deadline a request arrived with travels
	 * in its Reactor context to the guarded calls made for it: WebClient calls and the gateway's
	 * own proxied calls.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(name = "org.springframework.web.server.WebFilter")
	static class ReactiveCallDeadlineConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "degradationCallDeadlineWebFilter")
		CallDeadlineWebFilter degradationCallDeadlineWebFilter(DegradationEngine engine,
				DegradationProperties properties) {
			return new CallDeadlineWebFilter(properties.getDeadline().getHeader(), properties.getDeadline().getMax(),
					engine.clock());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(name = "jakarta.servlet.Filter")
	static class CallDeadlineConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "degradationCallDeadlineFilter")
		FilterRegistrationBean<CallDeadlineFilter> degradationCallDeadlineFilter(DegradationEngine engine,
				DegradationProperties properties) {
			CallDeadlineFilter filter = new CallDeadlineFilter(properties.getDeadline().getHeader(),
					properties.getDeadline().getMax(), engine.clock());
			FilterRegistrationBean<CallDeadlineFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RestClientCustomizer.class)
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	static class RestClientConfiguration {

		@Bean
		RestClientCustomizer degradationRestClientCustomizer(DependencyGuards guards, DegradationEngine engine,
				DegradationProperties properties) {
			// One interceptor per builder: each learns whether its own client enforces the limit.
			return (builder) -> builder.requestInterceptor(new GuardingInterceptor(guards,
					properties.getDeadline().getHeader(), engine.clock(), properties.getPriority().headerWhenEnabled()));
		}

		/**
		 * A {@code RestClient.Builder} bean the application defines itself (a
		 * {@code @LoadBalanced} one, say) is not Boot's, so Boot's customizers never reach it:
		 * it gets the guard here, first among its interceptors, so that it sees the URL the
		 * application called ({@code http://SERVICE-ID/...}) before a load balancer's
		 * interceptor, added before initialization, replaces it with an instance's address.
		 */
		@Bean
		static BeanPostProcessor degradationRestClientBuilderPostProcessor(ObjectProvider<DependencyGuards> guards,
				ObjectProvider<DegradationEngine> engine, ObjectProvider<DegradationProperties> properties,
				BeanFactory beanFactory) {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (bean instanceof RestClient.Builder builder && !builtByBoot(beanFactory, beanName)) {
						builder.requestInterceptors((interceptors) -> {
							if (interceptors.stream().noneMatch(GuardingInterceptor.class::isInstance)) {
								DegradationProperties settings = properties.getObject();
								interceptors.add(0, new GuardingInterceptor(guards.getObject(),
										settings.getDeadline().getHeader(), engine.getObject().clock(),
										settings.getPriority().headerWhenEnabled()));
							}
						});
					}
					return bean;
				}

			};
		}

	}

	/**
	 * Return whether a bean is one of Boot's own (its builders, which Boot's customizers reach):
	 * defined by one of Boot's auto-configurations.
	 * @param beanFactory the bean factory
	 * @param beanName the bean's name
	 * @return whether Boot defines it
	 */
	static boolean builtByBoot(BeanFactory beanFactory, String beanName) {
		if (beanFactory instanceof ConfigurableListableBeanFactory listable && listable.containsBeanDefinition(beanName)) {
			String factory = listable.getBeanDefinition(beanName).getFactoryBeanName();
			return factory != null && factory.startsWith("org.springframework.boot.");
		}
		return false;
	}

	/**
	 * With Apache HttpClient as the request factory, gives each guarded attempt its time limit as
	 * HttpClient's own per-request timeouts, so the call runs on its caller's thread, and leaves
	 * the retries of guarded calls to their guards: HttpClient's own would wait a 503's
	 * {@code Retry-After} uncapped inside one attempt.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HttpClientBuilder.class, ClientHttpRequestFactoryBuilderCustomizer.class })
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	static class HttpComponentsConfiguration {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> degradationHttpComponentsRetryCustomizer(
				DependencyGuards guards) {
			GuardedCallRetryStrategy strategy = new GuardedCallRetryStrategy(guards);
			HttpComponentsAttemptTimeout timeout = new HttpComponentsAttemptTimeout();
			return (builder) -> builder.withHttpClientCustomizer((client) -> client.setRetryStrategy(strategy)
				.addExecInterceptorFirst(HttpComponentsAttemptTimeout.NAME, timeout));
		}

	}

	/**
	 * With the JDK's {@code HttpClient} as the request factory (what Boot builds when no other
	 * client is on the class path), gives each guarded attempt its time limit as the read timeout
	 * of its own request ({@link JdkAttemptTimeout}), so the call runs on its caller's thread.
	 * Spring's JDK factory has one read timeout for all its requests and Boot's builder no hook
	 * per request, so the builder is wrapped once it is complete (its customizers applied, which
	 * see it as it is): every factory it builds, for a {@code RestClient}, a
	 * {@code RestTemplate} or an HTTP service group, with their settings, is decorated.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ClientHttpRequestFactoryBuilderCustomizer.class)
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	static class JdkClientConfiguration {

		@Bean
		static BeanPostProcessor degradationJdkAttemptTimeoutPostProcessor() {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (!(bean instanceof JdkClientHttpRequestFactoryBuilder jdk)) {
						return bean;
					}
					ClientHttpRequestFactoryBuilder<JdkAttemptTimeout> limited = (settings) -> new JdkAttemptTimeout(
							jdk.build(settings), (settings != null) ? settings.readTimeout() : null);
					return limited;
				}

			};
		}

	}

	/**
	 * With Reactor Netty as the request factory, gives each guarded attempt its time limit as the
	 * response timeout of its own request ({@link ReactorAttemptTimeout}), so the call runs on
	 * its caller's thread.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HttpClient.class, ClientHttpRequestFactoryBuilderCustomizer.class })
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	static class ReactorClientConfiguration {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<ReactorClientHttpRequestFactoryBuilder> degradationReactorAttemptTimeoutCustomizer() {
			ReactorAttemptTimeout timeout = new ReactorAttemptTimeout();
			return (builder) -> builder.withHttpClientCustomizer(timeout);
		}

	}

	/**
	 * The executor's meters: calls refused because it was full, calls holding a thread, and its
	 * bound.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class GuardExecutorMetricsConfiguration {

		@Bean
		MeterBinder degradationGuardExecutorMeterBinder(GuardExecutor executor) {
			return (registry) -> {
				FunctionCounter.builder("degradation.guard.executor.rejected", executor, GuardExecutor::rejected)
					.description("Guarded calls refused because every thread of the guards' executor was taken")
					.register(registry);
				Gauge.builder("degradation.guard.executor.active", executor, GuardExecutor::active)
					.description("Guarded calls holding a thread of the guards' executor")
					.register(registry);
				Gauge.builder("degradation.guard.executor.max", executor, GuardExecutor::maxCalls)
					.description("Most guarded calls that may hold a thread of the guards' executor at once")
					.register(registry);
			};
		}

	}

}
