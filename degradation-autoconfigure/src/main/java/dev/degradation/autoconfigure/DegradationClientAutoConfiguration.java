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

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
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
import org.springframework.boot.http.client.SimpleClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import dev.degradation.actuate.EndpointSection;
import dev.degradation.client.AnnotatedBreakerCheck;
import dev.degradation.client.CallDeadlineFilter;
import dev.degradation.client.ClientGuarding;
import dev.degradation.client.CallDeadlineWebFilter;
import dev.degradation.client.DependencyGuards;
import dev.degradation.client.GuardExecutor;
import dev.degradation.client.GuardedCallRetryStrategy;
import dev.degradation.client.GuardingInterceptor;
import dev.degradation.client.HandBuiltAttemptTimeout;
import dev.degradation.client.HttpComponentsAttemptTimeout;
import dev.degradation.client.JdkAttemptTimeout;
import dev.degradation.client.ReactorAttemptTimeout;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.DegradationManifest;

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

	/**
	 * The guards are built at startup in Resilience4j's registries when its Boot integration
	 * defines them (its endpoints, health and meters show them from then on, and a breaker
	 * declared there too is replaced with a warning at startup, as before); in registries of
	 * their own otherwise, which nothing else sees, at the first guarded call: an application
	 * then loads none of Resilience4j before it needs it.
	 */
	@Bean
	@ConditionalOnMissingBean
	DependencyGuards degradationDependencyGuards(DegradationEngine engine,
			ObjectProvider<CircuitBreakerRegistry> breakers, ObjectProvider<TimeLimiterRegistry> timeLimiters,
			ObjectProvider<RetryRegistry> retries, GuardExecutor executor) {
		CircuitBreakerRegistry sharedBreakers = breakers.getIfAvailable();
		TimeLimiterRegistry sharedTimeLimiters = timeLimiters.getIfAvailable();
		RetryRegistry sharedRetries = retries.getIfAvailable();
		if (sharedBreakers == null && sharedTimeLimiters == null && sharedRetries == null) {
			return new DependencyGuards(engine, CircuitBreakerRegistry::ofDefaults, TimeLimiterRegistry::ofDefaults,
					RetryRegistry::ofDefaults, executor);
		}
		return new DependencyGuards(engine,
				(sharedBreakers != null) ? sharedBreakers : CircuitBreakerRegistry.ofDefaults(),
				(sharedTimeLimiters != null) ? sharedTimeLimiters : TimeLimiterRegistry.ofDefaults(),
				(sharedRetries != null) ? sharedRetries : RetryRegistry.ofDefaults(), executor);
	}

	/**
	 * Resilience4j's own {@code @CircuitBreaker} named after a dependency takes the guard's
	 * breaker: said at startup. Only with Resilience4j's annotations on the class path.
	 */
	@Bean
	@ConditionalOnClass(name = AnnotatedBreakerCheck.ANNOTATION)
	@ConditionalOnMissingBean
	AnnotatedBreakerCheck degradationAnnotatedBreakerCheck(ListableBeanFactory beans, DegradationManifest manifest) {
		return new AnnotatedBreakerCheck(beans, manifest);
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
				DegradationRequestProperties properties) {
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
				DegradationRequestProperties properties) {
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
				DegradationRequestProperties properties) {
			// One interceptor per builder: each learns whether its own client enforces the limit.
			return (builder) -> builder.requestInterceptor(new GuardingInterceptor(guards,
					properties.getDeadline().getHeader(), engine.clock(), properties.getPriority().headerWhenEnabled()));
		}

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
	 * {@code RestTemplate} or an HTTP service group, with their settings, is decorated; so is
	 * every {@code HttpURLConnection} factory of Boot's ({@link HandBuiltAttemptTimeout}). The
	 * factories Boot's Apache HttpClient and Reactor Netty builders make (with the starter's hooks,
	 * above and below) are remembered, so that a client the application builds on one of them is
	 * known to bound its calls.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ClientHttpRequestFactoryBuilderCustomizer.class)
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	static class JdkClientConfiguration {

		@Bean
		static BeanPostProcessor degradationJdkAttemptTimeoutPostProcessor(ObjectProvider<ClientGuarding> guarding) {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (bean instanceof JdkClientHttpRequestFactoryBuilder jdk) {
						ClientHttpRequestFactoryBuilder<JdkAttemptTimeout> limited = (settings) -> new JdkAttemptTimeout(
								jdk.build(settings), (settings != null) ? settings.readTimeout() : null);
						return limited;
					}
					if (bean instanceof SimpleClientHttpRequestFactoryBuilder simple) {
						ClientHttpRequestFactoryBuilder<ClientHttpRequestFactory> bounded = (settings) -> {
							SimpleClientHttpRequestFactory factory = simple.build(settings);
							HandBuiltAttemptTimeout timeout = HandBuiltAttemptTimeout.of(factory);
							return (timeout != null) ? timeout : factory;
						};
						return bounded;
					}
					if (isHooked(bean)) {
						ClientHttpRequestFactoryBuilder<?> hooked = (ClientHttpRequestFactoryBuilder<?>) bean;
						ClientHttpRequestFactoryBuilder<ClientHttpRequestFactory> remembered = (settings) -> {
							ClientHttpRequestFactory factory = hooked.build(settings);
							ClientGuarding clients = guarding.getIfAvailable();
							return (clients != null) ? clients.hooked(factory) : factory;
						};
						return remembered;
					}
					return bean;
				}

				/** Boot's builders whose factories have the starter's per-request hook. */
				private boolean isHooked(Object bean) {
					String type = bean.getClass().getName();
					return type.equals("org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder")
							|| type.equals("org.springframework.boot.http.client.ReactorClientHttpRequestFactoryBuilder");
				}

			};
		}

	}

	/**
	 * The blocking clients the application builds itself, load-balanced or not: its
	 * {@code RestClient.Builder}, {@code RestClient} and {@code RestTemplate} beans get the guard,
	 * first among their interceptors (before Spring Cloud LoadBalancer's), unless Boot's builder
	 * gave it already; the request factories they are given are bounded per request where the
	 * factory allows it, and startup says which clients' calls need a thread
	 * ({@link ClientGuarding}). A bean post-processor, as Spring Cloud LoadBalancer's for
	 * {@code @LoadBalanced} clients, so that Spring Cloud stays optional.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	static class ApplicationClientsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ClientGuarding degradationClientGuarding(DependencyGuards guards, DegradationEngine engine,
				DegradationRequestProperties properties) {
			return new ClientGuarding(guards, (unbounded) -> new GuardingInterceptor(guards,
					properties.getDeadline().getHeader(), engine.clock(), properties.getPriority().headerWhenEnabled(),
					unbounded));
		}

		@Bean
		static BeanPostProcessor degradationApplicationClientsPostProcessor(ObjectProvider<ClientGuarding> guarding) {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (!(bean instanceof RestClient.Builder) && !(bean instanceof RestClient)
							&& !(bean instanceof RestTemplate)) {
						return bean;
					}
					ClientGuarding clients = guarding.getIfAvailable();
					if (clients == null) {
						return bean;
					}
					if (bean instanceof RestClient.Builder builder) {
						return clients.guard(builder, beanName);
					}
					if (bean instanceof RestClient client) {
						return clients.guard(client, beanName);
					}
					return clients.guard((RestTemplate) bean, "bean '" + beanName + "'");
				}

			};
		}

		/**
		 * The clients whose guarded calls need a thread, in the {@code degradation} endpoint's
		 * answer ({@code unboundedClients}).
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = DegradationAutoConfiguration.ACTUATOR_ENDPOINT_CLASS)
		static class UnboundedClientsEndpointConfiguration {

			@Bean
			EndpointSection degradationUnboundedClientsSection(ClientGuarding guarding) {
				return new EndpointSection("unboundedClients", guarding::unboundedClients);
			}

		}

		/**
		 * The {@code RestTemplate}s built from Boot's {@code RestTemplateBuilder} that are not
		 * beans (built where they are used) get the guard as they are built.
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(RestTemplateCustomizer.class)
		static class RestTemplateBuilderConfiguration {

			@Bean
			RestTemplateCustomizer degradationRestTemplateCustomizer(ClientGuarding guarding) {
				return (template) -> guarding.guard(template, "built by Boot's RestTemplateBuilder");
			}

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
