package dev.degradation.test.autoconfigure;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import dev.degradation.autoconfigure.DegradationAutoConfiguration;
import dev.degradation.handler.WebFluxHandlerContributor;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.autoconfigure.DegradationRequestProperties;
import dev.degradation.test.DegradationTestClock;
import dev.degradation.test.SimulatedRequests;
import dev.degradation.test.contract.ContractHandlerInterceptor;
import dev.degradation.test.contract.ContractWebFilter;

/**
 * Auto-configuration of what a test of graceful degradation needs beyond the starter itself: a
 * {@link DegradationTestClock} for the engine, unless the application has a {@code Clock} of its
 * own, and the interceptor (Spring MVC) or web filter (WebFlux) that tells the
 * {@linkplain dev.degradation.test.contract contract tests} which handler a request reached.
 * Imported by {@link dev.degradation.test.AutoConfigureDegradation @AutoConfigureDegradation}
 * only, never in a running application.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
@ConditionalOnBean(DegradationEngine.class)
public final class DegradationTestAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(Clock.class)
	DegradationTestClock degradationTestClock() {
		return new DegradationTestClock();
	}

	/**
	 * An advance of the test clock has the engine derive its state at once, instead of at its
	 * next evaluation up to a second later.
	 */
	@Bean
	static SmartInitializingSingleton degradationTestClockEvaluation(ObjectProvider<DegradationTestClock> clock,
			ObjectProvider<DegradationEngine> engine) {
		return () -> clock.ifAvailable((testClock) -> engine.orderedStream()
			.filter((candidate) -> candidate.clock() == testClock)
			.forEach((candidate) -> testClock.onAdvance(candidate::evaluate)));
	}

	/**
	 * The headers of a test's own simulated requests, with the token the application checks.
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty("degradation.simulation.requests.enabled")
	SimulatedRequests degradationSimulatedRequests(DegradationRequestProperties properties) {
		String token = properties.getSimulation().getRequests().tokenWhenEnabled();
		return new SimulatedRequests((token != null) ? token : "");
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(WebMvcConfigurer.class)
	static class ContractConfiguration {

		@Bean
		ContractHandlerInterceptor degradationContractInterceptor() {
			return new ContractHandlerInterceptor();
		}

		@Bean
		WebMvcConfigurer degradationContractInterceptorConfigurer(ContractHandlerInterceptor interceptor) {
			return new WebMvcConfigurer() {

				@Override
				public void addInterceptors(InterceptorRegistry registry) {
					// Last, next to the handler: a request that the contract marks has passed every
					// filter and interceptor of the application when it is stopped.
					registry.addInterceptor(interceptor).order(Ordered.LOWEST_PRECEDENCE);
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(name = "org.springframework.web.reactive.HandlerMapping")
	static class ReactiveContractConfiguration {

		@Bean
		ContractWebFilter degradationContractWebFilter(ObjectProvider<HandlerMapping> mappings,
				ObjectProvider<WebFluxHandlerContributor> contributors) {
			return new ContractWebFilter(mappings, contributors.orderedStream().toList());
		}

	}

}
