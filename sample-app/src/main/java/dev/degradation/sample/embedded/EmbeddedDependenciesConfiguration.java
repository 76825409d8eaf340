package dev.degradation.sample.embedded;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Registers {@link EmbeddedDependencies} when the embedded dependencies were started, and nothing
 * when the shop is pointed at real ones.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedDependenciesConfiguration.EmbeddedDependenciesStarted.class)
public class EmbeddedDependenciesConfiguration {

	@Bean
	EmbeddedDependencies embeddedDependencies(ConfigurableEnvironment environment) {
		return EmbeddedDependencies.of(environment);
	}

	static final class EmbeddedDependenciesStarted implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return context.getEnvironment() instanceof ConfigurableEnvironment environment
					&& EmbeddedDependencies.startedFor(environment);
		}

	}

}
