package dev.degradation.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration;
import io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.InterceptingClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import dev.degradation.client.AnnotatedBreakerCheck;
import dev.degradation.client.ClientGuarding;
import dev.degradation.client.DependencyGuards;
import dev.degradation.client.GuardingInterceptor;
import dev.degradation.client.HandBuiltAttemptTimeout;
import dev.degradation.client.GuardExecutor;
import dev.degradation.client.JdkAttemptTimeout;
import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.engine.DegradationEngine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every condition of {@link DegradationClientAutoConfiguration}: with and without
 * Resilience4j's Boot integration, without Resilience4j, without Apache HttpClient.
 */
@ExtendWith(OutputCaptureExtension.class)
class DegradationClientAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
				DegradationClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class))
		.withPropertyValues("degradation.manifest=classpath:client/degradation-manifest.yaml",
				"degradation.probes.enabled=false", "stub.url=http://127.0.0.1:9");

	@Test
	void withResilience4jsBootIntegrationTheBreakersAreInItsRegistries() {
		this.runner
			.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class,
					RetryAutoConfiguration.class, TimeLimiterAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(DependencyGuards.class).hasSingleBean(CircuitBreakerRegistry.class);
				CircuitBreakerRegistry registry = context.getBean(CircuitBreakerRegistry.class);
				assertThat(registry.getAllCircuitBreakers()).extracting(CircuitBreaker::getName)
					.contains("data", "retrying", "hanging");
				assertThat(context.getBean(DependencyGuards.class).guard("data").circuitBreaker())
					.isSameAs(registry.circuitBreaker("data"));
				assertThat(context.getBean(RetryRegistry.class).getAllRetries()).isNotEmpty();
			});
	}

	@Test
	void aBreakerConfiguredThroughResilience4jsPropertiesIsReplacedByTheManifestsAndSaidSo(CapturedOutput output) {
		this.runner
			.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class,
					RetryAutoConfiguration.class, TimeLimiterAutoConfiguration.class))
			.withPropertyValues("resilience4j.circuitbreaker.instances.data.sliding-window-size=100",
					"resilience4j.circuitbreaker.instances.data.automatic-transition-from-open-to-half-open-enabled=false")
			.run((context) -> {
				CircuitBreaker data = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("data");
				assertThat(data).isSameAs(context.getBean(DependencyGuards.class).guard("data").circuitBreaker());
				// The manifest's window, and a breaker that turns half-open by itself.
				assertThat(data.getCircuitBreakerConfig().getSlidingWindowSize()).isEqualTo(10);
				assertThat(data.getCircuitBreakerConfig().isAutomaticTransitionFromOpenToHalfOpenEnabled()).isTrue();
				assertThat(output).contains("The circuit breaker 'data' already in Resilience4j's registry",
						"resilience4j.circuitbreaker.instances.data");
			});
	}

	@Test
	void aRetryOrTimeLimiterConfiguredThroughResilience4jsPropertiesIsReplacedByTheManifestsAndSaidSo(
			CapturedOutput output) {
		this.runner
			.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class,
					RetryAutoConfiguration.class, TimeLimiterAutoConfiguration.class))
			.withPropertyValues("resilience4j.retry.instances.data.max-attempts=7",
					"resilience4j.timelimiter.instances.data.timeout-duration=30s")
			.run((context) -> {
				assertThat(context.getBean(RetryRegistry.class).retry("data"))
					.isSameAs(context.getBean(DependencyGuards.class).guard("data").retry());
				assertThat(context.getBean(RetryRegistry.class).retry("data").getRetryConfig().getMaxAttempts())
					.isNotEqualTo(7);
				assertThat(output).contains("The retry 'data' already in Resilience4j's registry",
						"resilience4j.retry.instances.data", "The time limiter 'data' already in Resilience4j's registry",
						"resilience4j.timelimiter.instances.data");
				assertThat(output).doesNotContain("The retry 'retrying' already");
			});
	}

	@Test
	void resilience4jsOwnBreakerNamedAfterADependencyIsSaidAtStartup(CapturedOutput output) {
		this.runner
			.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class,
					RetryAutoConfiguration.class, TimeLimiterAutoConfiguration.class))
			.withBean(AnnotatedCalls.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(AnnotatedBreakerCheck.class);
				assertThat(output).contains("Resilience4j's @CircuitBreaker(name = \"data\") on AnnotatedCalls.read "
						+ "names the manifest's dependency 'data', whose guard keeps its breaker under that name: each "
						+ "call through both is counted twice, and its fallbackMethod 'cached' answers a refused call "
						+ "before the route's declared fallback")
					.doesNotContain("name = \"reports\"");
			});
	}

	@Test
	void withoutResilience4jsAnnotationsNoBeanIsSearchedForThem() {
		this.runner.withClassLoader(new FilteredClassLoader("io.github.resilience4j.circuitbreaker.annotation"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(AnnotatedBreakerCheck.class));
	}

	@Test
	void withoutResilience4jsBootIntegrationTheStarterStartsAndGuardsWithItsOwnRegistries() {
		this.runner.withClassLoader(new FilteredClassLoader("io.github.resilience4j.springboot")).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(DependencyGuards.class)
				.doesNotHaveBean(CircuitBreakerRegistry.class)
				.hasSingleBean(RestClientCustomizer.class)
				.hasBean("degradationCallDeadlineFilter");
			DependencyGuards guards = context.getBean(DependencyGuards.class);
			assertThat(guards.call("data", () -> "answer")).isEqualTo("answer");
			assertThatExceptionOfType(DependencyUnavailableException.class)
				.isThrownBy(() -> guards.call("data", () -> {
					throw new IllegalStateException("down");
				}))
				.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(DependencyUnavailableException.Reason.FAILED));
		});
	}

	@Test
	void theCustomizersOfBootsClientsCanBeSwitchedOffLeavingTheGuardsToTheApplication() {
		this.runner.run((context) -> assertThat(context).hasBean("degradationRestClientCustomizer")
			.hasBean("degradationHttpComponentsRetryCustomizer"));
		this.runner.withPropertyValues("degradation.client.customizers.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(DependencyGuards.class)
				.doesNotHaveBean("degradationRestClientCustomizer")
				.doesNotHaveBean("degradationHttpComponentsRetryCustomizer")
				.doesNotHaveBean("degradationJdkAttemptTimeoutPostProcessor")
				.doesNotHaveBean("degradationReactorAttemptTimeoutCustomizer");
			assertThat(context.getBean(DependencyGuards.class).call("data", () -> "answer")).isEqualTo("answer");
		});
	}

	@Test
	void withoutResilience4jNothingIsGuardedAndTheStarterStillStarts() {
		this.runner.withClassLoader(new FilteredClassLoader(CircuitBreaker.class)).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(DegradationEngine.class)
				.doesNotHaveBean(DependencyGuards.class)
				.doesNotHaveBean("degradationCallDeadlineFilter");
		});
	}

	@Test
	void withApacheHttpClientItsRetriesOfGuardedCallsAreLeftToTheGuards() {
		this.runner.run((context) -> assertThat(context).hasBean("degradationHttpComponentsRetryCustomizer"));
		this.runner.withClassLoader(new FilteredClassLoader(HttpClientBuilder.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("degradationHttpComponentsRetryCustomizer")
				.hasSingleBean(DependencyGuards.class));
	}

	@Test
	void withTheJdksClientEveryFactoryBootBuildsGivesGuardedRequestsTheirOwnTimeout() {
		this.runner.withPropertyValues("spring.http.clients.imperative.factory=jdk")
			.run((context) -> assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class).build())
				.isInstanceOf(JdkAttemptTimeout.class));
		this.runner
			.withPropertyValues("spring.http.clients.imperative.factory=jdk",
					"degradation.client.customizers.enabled=false")
			.run((context) -> assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class).build())
				.isInstanceOf(JdkClientHttpRequestFactory.class));
		this.runner.run((context) -> assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class).build())
			.isInstanceOf(HttpComponentsClientHttpRequestFactory.class));
		// HttpURLConnection's factory, bounded per request as one the application built.
		this.runner.withPropertyValues("spring.http.clients.imperative.factory=simple")
			.run((context) -> assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class).build())
				.isInstanceOf(HandBuiltAttemptTimeout.class));
	}

	@Test
	void withReactorNettyItsClientGetsThePerRequestTimeout() {
		this.runner.withPropertyValues("spring.http.clients.imperative.factory=reactor")
			.run((context) -> assertThat(context).hasBean("degradationReactorAttemptTimeoutCustomizer")
				.getBean(ClientHttpRequestFactoryBuilder.class)
				.satisfies((builder) -> assertThat(builder.build()).isInstanceOf(ReactorClientHttpRequestFactory.class)));
		this.runner.withClassLoader(new FilteredClassLoader(reactor.netty.http.client.HttpClient.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("degradationReactorAttemptTimeoutCustomizer"));
	}

	@Test
	void theGuardsExecutorIsBoundedByAPropertyCountedInMetersAndReplaceable() {
		this.runner.withPropertyValues("degradation.client.max-threaded-calls=7")
			.withBean(SimpleMeterRegistry.class)
			.run((context) -> {
				GuardExecutor executor = context.getBean(GuardExecutor.class);
				assertThat(executor.maxCalls()).isEqualTo(7);
				assertThat(context.getBean(DependencyGuards.class).executor()).isSameAs(executor);
				SimpleMeterRegistry meters = context.getBean(SimpleMeterRegistry.class);
				context.getBean(MeterBinder.class).bindTo(meters);
				assertThat(meters.get("degradation.guard.executor.rejected").functionCounter().count()).isZero();
				assertThat(meters.get("degradation.guard.executor.max").gauge().value()).isEqualTo(7);
				assertThat(meters.get("degradation.guard.executor.active").gauge().value()).isZero();
			});
		this.runner.withBean("myExecutor", GuardExecutor.class, () -> GuardExecutor.platformThreads(3))
			.run((context) -> assertThat(context.getBean(DependencyGuards.class).executor().maxCalls()).isEqualTo(3));
		this.runner.withPropertyValues("degradation.client.max-threaded-calls=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("'max-threaded-calls' must be greater than or equal to 1"));
	}

	@Test
	@EnabledForJreRange(max = JRE.JAVA_20)
	void beforeJava21VirtualThreadsAreAskedForInVainAndTheExecutorKeepsPlatformThreads() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(DependencyGuards.class).call("data", () -> Thread.currentThread().getName()))
				.startsWith("degradation-call-");
		});
	}

	@Test
	void theDeadlineHeaderAndItsMaximumAreProperties() {
		this.runner
			.withPropertyValues("degradation.deadline.header=x-deadline-ms", "degradation.deadline.max=2s")
			.run((context) -> {
				DegradationRequestProperties.Deadline deadline = context.getBean(DegradationRequestProperties.class)
					.getDeadline();
				assertThat(deadline.getHeader()).isEqualTo("x-deadline-ms");
				assertThat(deadline.getMax()).isEqualTo(Duration.ofSeconds(2));
				assertThat(context.getBean("degradationCallDeadlineFilter")).isNotNull();
			});
		this.runner.withPropertyValues("degradation.deadline.max=0s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("'max' must be greater than 0"));
	}

	@Test
	void theApplicationsOwnClientsGetTheGuardOnceAndFirstAmongTheirInterceptors() {
		ClientHttpRequestInterceptor own = (request, body, execution) -> execution.execute(request, body);
		this.runner.withBean("myBuilder", RestClient.Builder.class, () -> RestClient.builder().requestInterceptor(own))
			.withBean("myTemplate", RestTemplate.class, RestTemplate::new)
			.run((context) -> {
				assertThat(interceptors(context.getBean("myBuilder", RestClient.Builder.class)))
					.satisfiesExactly((first) -> assertThat(first).isInstanceOf(GuardingInterceptor.class),
							(second) -> assertThat(second).isSameAs(own));
				RestTemplate template = context.getBean(RestTemplate.class);
				assertThat(template.getInterceptors()).singleElement().isInstanceOf(GuardingInterceptor.class);
				// Its own factory (Spring's HttpURLConnection one) bounds each guarded request.
				assertThat(((InterceptingClientHttpRequestFactory) template.getRequestFactory()).getDelegate())
					.isInstanceOf(HandBuiltAttemptTimeout.class);
			});
		// Boot's builder has it from the customizer, and only once.
		this.runner.run((context) -> assertThat(interceptors(context.getBean(RestClient.Builder.class)))
			.filteredOn(GuardingInterceptor.class::isInstance)
			.hasSize(1));
		this.runner.withPropertyValues("degradation.client.customizers.enabled=false")
			.withBean("myTemplate", RestTemplate.class, RestTemplate::new)
			.run((context) -> {
				assertThat(context).doesNotHaveBean("degradationApplicationClientsPostProcessor")
					.doesNotHaveBean(ClientGuarding.class);
				assertThat(context.getBean(RestTemplate.class).getInterceptors()).isEmpty();
			});
	}

	@Test
	void aRestTemplateFromBootsBuilderIsGuardedOnceAndAFactoryBootBuiltNeedsNoBound() {
		this.runner.withConfiguration(AutoConfigurations.of(RestTemplateAutoConfiguration.class))
			.withPropertyValues("spring.http.clients.imperative.factory=reactor")
			.run((context) -> {
				ClientHttpRequestFactory built = context.getBean(ClientHttpRequestFactoryBuilder.class).build();
				RestTemplate template = context.getBean(RestTemplateBuilder.class).requestFactory(() -> built).build();
				assertThat(template.getInterceptors()).filteredOn(GuardingInterceptor.class::isInstance).hasSize(1);
				// Built by Boot's builder, with the starter's hook: used as it is, and nothing to say.
				assertThat(((InterceptingClientHttpRequestFactory) template.getRequestFactory()).getDelegate())
					.isSameAs(built);
				assertThat(context.getBean(ClientGuarding.class).unboundedClients()).isEmpty();
				// The same kind of factory made by the application: its calls take a thread, said once.
				context.getBean(RestTemplateBuilder.class).requestFactory(ReactorClientHttpRequestFactory::new).build();
				assertThat(context.getBean(ClientGuarding.class).unboundedClients()).singleElement()
					.satisfies((client) -> assertThat(client.dependencies()).contains("data", "hanging"));
			});
	}

	private static List<ClientHttpRequestInterceptor> interceptors(RestClient.Builder builder) {
		List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>();
		builder.requestInterceptors(interceptors::addAll);
		return interceptors;
	}

	/** An application's own use of Resilience4j's annotation: one named after a dependency. */
	static class AnnotatedCalls {

		@io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker(name = "data", fallbackMethod = "cached")
		String read() {
			return "live";
		}

		String cached(Throwable failure) {
			return "cached";
		}

		@io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker(name = "reports")
		String report() {
			return "report";
		}

	}

}
