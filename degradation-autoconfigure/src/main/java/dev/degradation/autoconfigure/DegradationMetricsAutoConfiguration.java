package dev.degradation.autoconfigure;

import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.degradation.actuate.DegradationMeterBinder;
import dev.degradation.engine.DegradationEngine;

/**
 * Auto-configuration of the degradation meters. Spring Boot binds the {@link MeterBinder} to
 * every meter registry it configures.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(DegradationEngine.class)
public final class DegradationMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DegradationMeterBinder degradationMeterBinder(DegradationEngine engine) {
		return new DegradationMeterBinder(engine);
	}

}
