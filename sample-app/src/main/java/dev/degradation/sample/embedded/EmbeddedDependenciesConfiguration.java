package dev.degradation.sample.embedded;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Registers the {@link EmbeddedDependencies} started for this environment as a bean, so that they
 * are stopped with the context; registers nothing when the shop uses real dependencies only.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedDependenciesConfiguration.EmbeddedDependenciesStarted.class)
public class EmbeddedDependenciesConfiguration {

	@Bean
	EmbeddedDependencies embeddedDependencies(ConfigurableEnvironment environment) {
		return EmbeddedDependencies.of(environment)
			.orElseThrow(() -> new IllegalStateException("No embedded dependency was started for this environment"));
	}

	static final class EmbeddedDependenciesStarted implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return context.getEnvironment() instanceof ConfigurableEnvironment environment
					&& EmbeddedDependencies.of(environment).isPresent();
		}

	}

}
