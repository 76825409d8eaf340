package dev.degradation.autoconfigure;

import java.lang.reflect.Method;

import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
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
import dev.degradation.client.WebClientGuarding;
import dev.degradation.engine.DegradationEngine;

/**
 * Guards the calls of every {@code WebClient} built from Boot's {@code WebClient.Builder}, and of
 * the {@code WebClient.Builder} and {@code WebClient} beans of the application, to the
 * manifest's dependencies with the same {@link DependencyGuards} as the {@code RestClient}s: one
 * breaker per dependency, whichever client calls it. Needs WebFlux's {@code WebClient}, Boot's
 * {@code spring-boot-webclient} and Resilience4j's Reactor operators; backs off without any of
 * them, or without the guards.
 */
@AutoConfiguration(after = DegradationClientAutoConfiguration.class)
@ConditionalOnClass({ WebClient.class, WebClientCustomizer.class, CircuitBreakerOperator.class })
@ConditionalOnBean(DependencyGuards.class)
public final class DegradationWebClientAutoConfiguration {

	/** Where Boot defines its {@code WebClient.Builder}, which its customizers configure. */
	private static final String BOOTS_BUILDER = "org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration";

	@Bean
	@ConditionalOnMissingBean(name = "degradationWebClientCustomizer")
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	WebClientCustomizer degradationWebClientCustomizer(DependencyGuards guards, DegradationEngine engine,
			DegradationRequestProperties properties) {
		return (builder) -> builder
			.filter(new GuardingExchangeFilter(guards, properties.getDeadline().getHeader(), engine.clock(),
					properties.getPriority().headerWhenEnabled()));
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	WebClientGuarding degradationWebClientGuarding(DependencyGuards guards, DegradationEngine engine,
			DegradationRequestProperties properties) {
		return new WebClientGuarding(() -> new GuardingExchangeFilter(guards, properties.getDeadline().getHeader(),
				engine.clock(), properties.getPriority().headerWhenEnabled()));
	}

	/**
	 * The {@code WebClient.Builder} and {@code WebClient} beans the application defines itself,
	 * load-balanced or not, get the guard first among their filters (before Spring Cloud
	 * LoadBalancer's), unless they have it. Boot's own builder is left to its customizers: the
	 * starter's, or one that replaced it by name. A bean post-processor, as Spring Cloud
	 * LoadBalancer's for {@code @LoadBalanced} builders, so that Spring Cloud stays optional.
	 */
	@Bean
	@ConditionalOnBooleanProperty(name = "degradation.client.customizers.enabled", matchIfMissing = true)
	static BeanPostProcessor degradationApplicationWebClientsPostProcessor(ObjectProvider<WebClientGuarding> guarding,
			ConfigurableListableBeanFactory beanFactory) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (!(bean instanceof WebClient.Builder) && !(bean instanceof WebClient)) {
					return bean;
				}
				WebClientGuarding clients = guarding.getIfAvailable();
				if (clients == null) {
					return bean;
				}
				if (bean instanceof WebClient.Builder builder) {
					return isBoots(beanName) ? builder : clients.guard(builder);
				}
				return clients.guard((WebClient) bean);
			}

			private boolean isBoots(String beanName) {
				if (!beanFactory.containsBeanDefinition(beanName)
						|| !(beanFactory.getMergedBeanDefinition(beanName) instanceof RootBeanDefinition definition)) {
					return false;
				}
				Method factoryMethod = definition.getResolvedFactoryMethod();
				return factoryMethod != null && factoryMethod.getDeclaringClass().getName().equals(BOOTS_BUILDER);
			}

		};
	}

}
