package dev.degradation.autoconfigure;

import java.util.function.BooleanSupplier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.PathMapper;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;

import dev.degradation.actuate.DegradationEndpoint;
import dev.degradation.actuate.DegradationEndpointWebExtension;
import dev.degradation.actuate.DegradationStatusPage;
import dev.degradation.actuate.EndpointSection;
import dev.degradation.actuate.EndpointWriteFilter;
import dev.degradation.actuate.EndpointWriteWebFilter;
import dev.degradation.actuate.ManifestReload;
import dev.degradation.actuate.StrictParametersAdvisor;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.handler.ManifestVerification;
import dev.degradation.reload.ManifestReloader;

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
@EnableConfigurationProperties({ DegradationOverrideProperties.class, DegradationStatusPageProperties.class,
		DegradationFilterProperties.class })
public final class DegradationEndpointAutoConfiguration {

	private static final EndpointId DEGRADATION = EndpointId.of("degradation");

	static final String AVAILABLE_ENDPOINT_CONDITION_CLASS = "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint";

	@Bean
	@ConditionalOnMissingBean
	static StrictParametersAdvisor degradationStrictParametersAdvisor() {
		return new StrictParametersAdvisor();
	}

	@Bean
	@ConditionalOnMissingBean
	DegradationEndpoint degradationEndpoint(DegradationEngine engine, DegradationOverrideProperties overrides,
			DegradationRequestProperties request,
			ObjectProvider<ManifestReloader> reloader, ObjectProvider<ManifestVerification> verification,
			ObjectProvider<EndpointSection> sections) {
		ManifestReloader manifestReloader = reloader.getIfAvailable();
		ManifestReload reload = (manifestReloader != null) ? (by) -> {
			ManifestReloader.Outcome outcome = manifestReloader.reload(by);
			return new ManifestReload.Result(outcome.status() == ManifestReloader.Outcome.Status.RELOADED,
					outcome.location(), outcome.problems(), outcome.reason());
		} : null;
		ManifestVerification handlers = verification.getIfAvailable();
		DegradationEndpoint endpoint = new DegradationEndpoint(engine, overrides.getMaxTtl(), reload,
				(handlers != null) ? handlers::handlers : null, () -> sections.orderedStream().toList());
		endpoint.setRequestSimulation(request.getSimulation().getRequests().isEnabled());
		return endpoint;
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(DegradationEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	DegradationEndpointWebExtension degradationEndpointWebExtension(DegradationEndpoint endpoint,
			DegradationStatusPageProperties ui) {
		return new DegradationEndpointWebExtension(endpoint,
				ui.isEnabled() ? new DegradationStatusPage(ui.getRefreshInterval()) : null);
	}

	/**
	 * Writes over the web are checked before the Actuator reads them ({@link EndpointWriteFilter}),
	 * after Spring Security, as the degradation filter is.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnAvailableEndpoint(endpoint = DegradationEndpoint.class, exposure = EndpointExposure.WEB)
	static class EndpointWriteFilterConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "degradationEndpointWriteFilter")
		FilterRegistrationBean<EndpointWriteFilter> degradationEndpointWriteFilter(
				DegradationFilterProperties filters, ObjectProvider<WebEndpointsSupplier> endpoints,
				ObjectProvider<PathMapper> pathMappers,
				ObjectProvider<WebEndpointProperties> webEndpoints) {
			return endpointWriteFilter(endpointPath(pathMappers, webEndpoints), filters, endpoints);
		}

		/**
		 * The servlet filter of the endpoint's writes, registered for the endpoint's paths; the same in
		 * the application's context and in the management context of a separate port.
		 */
		static FilterRegistrationBean<EndpointWriteFilter> endpointWriteFilter(String endpointPath,
				DegradationFilterProperties filters, ObjectProvider<WebEndpointsSupplier> endpoints) {
			EndpointWriteFilter filter = new EndpointWriteFilter(endpointPath, new Writable(endpoints));
			FilterRegistrationBean<EndpointWriteFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setName("degradationEndpointWriteFilter");
			registration.setOrder(filters.getOrder());
			registration.addUrlPatterns(endpointPath, endpointPath + "/*");
			return registration;
		}

	}

	/**
	 * On WebFlux the same checks run in a web filter ({@link EndpointWriteWebFilter}), after
	 * Spring Security's web filter chain, as the degradation web filter is.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(name = "org.springframework.web.server.WebFilter")
	@ConditionalOnAvailableEndpoint(endpoint = DegradationEndpoint.class, exposure = EndpointExposure.WEB)
	static class EndpointWriteWebFilterConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "degradationEndpointWriteFilter")
		EndpointWriteWebFilter degradationEndpointWriteFilter(DegradationFilterProperties filters,
				ObjectProvider<WebEndpointsSupplier> endpoints, ObjectProvider<PathMapper> pathMappers,
				ObjectProvider<WebEndpointProperties> webEndpoints, ResourceLoader resourceLoader) {
			int order = filters.getOrder();
			DegradationReactiveAutoConfiguration.checkAfterSecurity(order, resourceLoader.getClassLoader());
			return new EndpointWriteWebFilter(endpointPath(pathMappers, webEndpoints), new Writable(endpoints),
					order);
		}

	}

	/**
	 * The endpoint's path within the application, as the Actuator maps it: Boot's base path
	 * ({@link WebEndpointProperties}) and the endpoint's root path from the application's
	 * {@link PathMapper path mappers}, {@code management.endpoints.web.path-mapping} among them.
	 * Worked out from those rather than asked of the Actuator's mapped endpoints, which discover
	 * every endpoint when first asked; asked from a filter's registration, that discovery ran before
	 * the web server started, and took a large share of the starter's own startup time.
	 */
	static String endpointPath(ObjectProvider<PathMapper> pathMappers,
			ObjectProvider<WebEndpointProperties> webEndpoints) {
		String basePath = webEndpoints.getIfAvailable(WebEndpointProperties::new).getBasePath();
		String path = PathMapper.getRootPath(pathMappers.orderedStream().toList(), DEGRADATION);
		return (basePath.endsWith("/") ? basePath : basePath + "/") + (path.startsWith("/") ? path.substring(1) : path);
	}

	/**
	 * Whether the endpoint has write operations over the web, which it has only with
	 * {@code management.endpoint.degradation.access=unrestricted}; looked up at the first write,
	 * once the endpoints are discovered.
	 */
	static final class Writable implements BooleanSupplier {

		private final ObjectProvider<WebEndpointsSupplier> endpoints;

		private volatile Boolean writable;

		Writable(ObjectProvider<WebEndpointsSupplier> endpoints) {
			this.endpoints = endpoints;
		}

		@Override
		public boolean getAsBoolean() {
			Boolean known = this.writable;
			if (known == null) {
				known = this.endpoints.orderedStream()
					.flatMap((supplier) -> supplier.getEndpoints().stream())
					.filter((endpoint) -> DEGRADATION.equals(endpoint.getEndpointId()))
					.map(ExposableWebEndpoint::getOperations)
					.flatMap(java.util.Collection::stream)
					.anyMatch((operation) -> operation.getType() != OperationType.READ);
				this.writable = known;
			}
			return known;
		}

	}

}
