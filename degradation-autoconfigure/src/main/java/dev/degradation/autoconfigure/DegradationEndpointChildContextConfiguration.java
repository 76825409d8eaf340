package dev.degradation.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.web.PathMapper;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

import dev.degradation.actuate.DegradationEndpoint;
import dev.degradation.actuate.EndpointWriteFilter;

/**
 * The check of the endpoint's writes in the management context of a separate management port on
 * Spring MVC: that context has a servlet container of its own, which the application's filters
 * never reach, so the check is registered there too (as Boot registers Spring Security's filter
 * chain in it). On WebFlux the management context's handler takes the application's web filters,
 * the write check among them.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "jakarta.servlet.Filter")
@ConditionalOnBean(DegradationEndpoint.class)
@ConditionalOnAvailableEndpoint(endpoint = DegradationEndpoint.class, exposure = EndpointExposure.WEB)
public class DegradationEndpointChildContextConfiguration {

	@Bean
	FilterRegistrationBean<EndpointWriteFilter> degradationEndpointWriteFilter(
			DegradationFilterProperties filters, ObjectProvider<WebEndpointsSupplier> endpoints,
			ObjectProvider<PathMapper> pathMappers,
			ObjectProvider<WebEndpointProperties> webEndpoints) {
		return DegradationEndpointAutoConfiguration.EndpointWriteFilterConfiguration.endpointWriteFilter(
				DegradationEndpointAutoConfiguration.endpointPath(pathMappers, webEndpoints), filters,
				endpoints);
	}

}
