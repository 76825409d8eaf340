package dev.degradation.autoconfigure;

import java.time.Clock;
import java.util.Locale;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.degradation.parts.DegradedPartsAdvice;
import dev.degradation.parts.PartGatherer;
import dev.degradation.parts.PartOutcomes;

/**
 * Auto-configuration of partial answers from inside a handler: the {@link PartGatherer} on a
 * bounded executor ({@code degradation.parts.*}), the advice that names the missing and stale
 * parts in {@code X-Degraded-Parts}, and, with Micrometer, the {@code degradation.parts} counter
 * (tags part, outcome). Needs no manifest, and stays with {@code degradation.enabled=false}: it is
 * an API the application's handlers call, and turning shedding off must not take it from them.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(DegradationPartsProperties.class)
public final class DegradationPartsAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	PartGatherer degradationPartGatherer(DegradationPartsProperties parts, ObjectProvider<PartOutcomes> outcomes,
			ObjectProvider<Clock> clock) {
		return new PartGatherer(PartGatherer.boundedExecutor(parts.getThreads(), parts.getQueueCapacity()),
				outcomes.getIfUnique(() -> PartOutcomes.NONE), clock.getIfUnique(Clock::systemUTC),
				DegradedPartsAdvice::attachToCurrentRequest);
	}

	@Bean
	@ConditionalOnMissingBean
	DegradedPartsAdvice degradedPartsAdvice() {
		return new DegradedPartsAdvice();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class PartMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		PartOutcomes degradationPartOutcomes(ObjectProvider<MeterRegistry> registries) {
			// Part names come from code, not from requests: the tag stays bounded.
			return (part, state) -> registries.orderedStream()
				.forEach((registry) -> registry
					.counter("degradation.parts", "part", part, "outcome", state.name().toLowerCase(Locale.ROOT))
					.increment());
		}

	}

}
