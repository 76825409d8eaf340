package dev.degradation.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.endpoint.web.PathMapper;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.degradation.actuate.DegradationEndpointWebExtension;
import dev.degradation.actuate.DegradationStatusPage;
import dev.degradation.actuate.StatusPageSlashFilter;
import dev.degradation.actuate.StatusPageSlashWebFilter;

/**
 * Sends the status page's address with a trailing slash ({@code .../degradation/ui/}) to the
 * page, wherever the Actuator is served: a management context configuration, so that the filter
 * is in the context that serves the endpoint, the application's own or, with a separate
 * {@code management.server.port}, the management server's. It runs after Spring Security, as
 * the page itself does.
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnClass(name = DegradationEndpointAutoConfiguration.AVAILABLE_ENDPOINT_CONDITION_CLASS)
@ConditionalOnBean(DegradationEndpointWebExtension.class)
@ConditionalOnAvailableEndpoint(endpoint = dev.degradation.actuate.DegradationEndpoint.class,
		exposure = EndpointExposure.WEB)
@ConditionalOnBooleanProperty(name = "degradation.ui.enabled", matchIfMissing = true)
public final class DegradationStatusPageManagementContextConfiguration {

	/**
	 * On Spring MVC, a servlet filter ({@link StatusPageSlashFilter}).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class ServletConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "degradationStatusPageSlashFilter")
		FilterRegistrationBean<StatusPageSlashFilter> degradationStatusPageSlashFilter(
				DegradationFilterProperties filters, ObjectProvider<PathMapper> pathMappers,
				ObjectProvider<WebEndpointProperties> webEndpoints) {
			String endpointPath = DegradationEndpointAutoConfiguration.endpointPath(pathMappers, webEndpoints);
			FilterRegistrationBean<StatusPageSlashFilter> registration = new FilterRegistrationBean<>(
					new StatusPageSlashFilter(endpointPath));
			registration.setName("degradationStatusPageSlashFilter");
			registration.setOrder(filters.getOrder());
			registration.addUrlPatterns(endpointPath + "/" + DegradationStatusPage.PAGE + "/");
			return registration;
		}

	}

	/**
	 * On WebFlux, a web filter ({@link StatusPageSlashWebFilter}).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(name = "org.springframework.web.server.WebFilter")
	static class ReactiveConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "degradationStatusPageSlashFilter")
		StatusPageSlashWebFilter degradationStatusPageSlashFilter(DegradationFilterProperties filters,
				ObjectProvider<PathMapper> pathMappers,
				ObjectProvider<WebEndpointProperties> webEndpoints) {
			return new StatusPageSlashWebFilter(
					DegradationEndpointAutoConfiguration.endpointPath(pathMappers, webEndpoints),
					filters.getOrder());
		}

	}

}
