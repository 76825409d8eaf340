package dev.degradation.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.degradation.actuate.DegradationEndpoint;
import dev.degradation.actuate.DegradationEndpointWebExtension;
import dev.degradation.actuate.DegradationStatusPage;
import dev.degradation.actuate.ManifestReload;
import dev.degradation.actuate.StrictParametersAdvisor;
import dev.degradation.engine.DegradationEngine;

/**
 * Auto-configuration of the {@code degradation} Actuator endpoint.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
// The condition annotations below live in the actuator's auto-configuration module: guard on it too,
// so that an application with only the actuator's core library still starts.
@ConditionalOnClass(name = { DegradationAutoConfiguration.ACTUATOR_ENDPOINT_CLASS,
		DegradationEndpointAutoConfiguration.AVAILABLE_ENDPOINT_CONDITION_CLASS })
@ConditionalOnBean(DegradationEngine.class)
@ConditionalOnAvailableEndpoint(DegradationEndpoint.class)
public final class DegradationEndpointAutoConfiguration {

	static final String AVAILABLE_ENDPOINT_CONDITION_CLASS = "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint";

	@Bean
	@ConditionalOnMissingBean
	static StrictParametersAdvisor degradationStrictParametersAdvisor() {
		return new StrictParametersAdvisor();
	}

	@Bean
	@ConditionalOnMissingBean
	DegradationEndpoint degradationEndpoint(DegradationEngine engine, DegradationProperties properties,
			ObjectProvider<ManifestReloader> reloader) {
		ManifestReloader manifestReloader = reloader.getIfAvailable();
		ManifestReload reload = (manifestReloader != null) ? (by) -> {
			ManifestReloader.Outcome outcome = manifestReloader.reload(by);
			return new ManifestReload.Result(outcome.status() == ManifestReloader.Outcome.Status.RELOADED,
					outcome.location(), outcome.problems(), outcome.reason());
		} : null;
		return new DegradationEndpoint(engine, properties.getOverrides().getMaxTtl(), reload);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(DegradationEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	DegradationEndpointWebExtension degradationEndpointWebExtension(DegradationEndpoint endpoint,
			DegradationProperties properties) {
		DegradationProperties.Ui ui = properties.getUi();
		return new DegradationEndpointWebExtension(endpoint,
				ui.isEnabled() ? new DegradationStatusPage(ui.getRefreshInterval()) : null);
	}

}
