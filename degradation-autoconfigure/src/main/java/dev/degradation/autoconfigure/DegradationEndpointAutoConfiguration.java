package dev.degradation.autoconfigure;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.degradation.actuate.DegradationEndpoint;
import dev.degradation.actuate.DegradationEndpointWebExtension;
import dev.degradation.engine.DegradationEngine;

/**
 * Auto-configuration of the {@code degradation} Actuator endpoint.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(DegradationEngine.class)
@ConditionalOnAvailableEndpoint(DegradationEndpoint.class)
public final class DegradationEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DegradationEndpoint degradationEndpoint(DegradationEngine engine) {
		return new DegradationEndpoint(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(DegradationEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	DegradationEndpointWebExtension degradationEndpointWebExtension(DegradationEndpoint endpoint) {
		return new DegradationEndpointWebExtension(endpoint);
	}

}
