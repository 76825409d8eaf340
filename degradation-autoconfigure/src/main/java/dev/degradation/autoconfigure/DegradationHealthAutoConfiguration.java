package dev.degradation.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import dev.degradation.actuate.DegradationHealthIndicator;
import dev.degradation.engine.DegradationEngine;

/**
 * Auto-configuration of the {@code degradation} health contributor, which shows the degradation
 * state in the health details and never turns the application down.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(DegradationEngine.class)
@ConditionalOnEnabledHealthIndicator("degradation")
public final class DegradationHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "degradationHealthIndicator")
	DegradationHealthIndicator degradationHealthIndicator(DegradationEngine engine) {
		return new DegradationHealthIndicator(engine);
	}

}
