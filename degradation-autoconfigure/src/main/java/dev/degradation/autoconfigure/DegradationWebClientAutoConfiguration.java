package dev.degradation.autoconfigure;

import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.client.DependencyGuards;
import dev.degradation.client.GuardingExchangeFilter;
import dev.degradation.engine.DegradationEngine;

/**
 * Guards the calls of every {@code WebClient} built from Boot's {@code WebClient.Builder} to the
 * manifest's dependencies with the same {@link DependencyGuards} as the {@code RestClient}s: one
 * breaker per dependency, whichever client calls it. Needs WebFlux's {@code WebClient}, Boot's
 * {@code spring-boot-webclient} and Resilience4j's Reactor operators; backs off without any of
 * them, or without the guards.
 */
@AutoConfiguration(after = DegradationClientAutoConfiguration.class)
@ConditionalOnClass({ WebClient.class, WebClientCustomizer.class, CircuitBreakerOperator.class })
@ConditionalOnBean(DependencyGuards.class)
public final class DegradationWebClientAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "degradationWebClientCustomizer")
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	WebClientCustomizer degradationWebClientCustomizer(DependencyGuards guards, DegradationEngine engine,
			DegradationProperties properties) {
		return (builder) -> builder
			.filter(new GuardingExchangeFilter(guards, properties.getDeadline().getHeader(), engine.clock(),
					properties.getPriority().headerWhenEnabled()));
	}

	/**
	 * A {@code WebClient.Builder} bean the application defines itself (a {@code @LoadBalanced}
	 * one, say) is not Boot's, so Boot's customizers never reach it: it gets the guard here, as
	 * its first filter, so that it sees the URL the application called
	 * ({@code http://SERVICE-ID/...}) before a load balancer's filter, added before
	 * initialization, replaces it with an instance's address.
	 * @param guards the guards
	 * @param engine the engine
	 * @param properties the starter's properties
	 * @param beanFactory the bean factory, to tell Boot's builder (which Boot's customizers
	 * reach, the starter's or one that replaced it) from the application's
	 * @return the post-processor
	 */
	@Bean
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	static BeanPostProcessor degradationWebClientBuilderPostProcessor(ObjectProvider<DependencyGuards> guards,
			ObjectProvider<DegradationEngine> engine, ObjectProvider<DegradationProperties> properties,
			BeanFactory beanFactory) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof WebClient.Builder builder
						&& !DegradationClientAutoConfiguration.builtByBoot(beanFactory, beanName)) {
					builder.filters((filters) -> {
						if (filters.stream().noneMatch(GuardingExchangeFilter.class::isInstance)) {
							DegradationProperties settings = properties.getObject();
							filters.add(0, new GuardingExchangeFilter(guards.getObject(),
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
