package dev.degradation.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;

import jakarta.servlet.DispatcherType;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationListener;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.web.DegradationFilter;
import dev.degradation.web.RouteTable;

/**
 * Auto-configuration of graceful degradation for a servlet web application: loads the manifest,
 * creates the engine that holds the shed level, probes the dependencies once the application is
 * ready, and registers the filter that serves fallbacks.
 * Backs off when {@code degradation.enabled=false}, outside a servlet web application, and when
 * there is no manifest at an optional location (saying so once at INFO).
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty(name = "degradation.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DegradationProperties.class)
public final class DegradationAutoConfiguration {

	static final String ACTUATOR_ENDPOINT_CLASS = "org.springframework.boot.actuate.endpoint.annotation.Endpoint";

	@Configuration(proxyBeanMethods = false)
	@Conditional(ManifestAvailableCondition.class)
	static class ActiveConfiguration {

		@Bean
		@ConditionalOnMissingBean
		DegradationManifest degradationManifest(DegradationProperties properties, ResourceLoader resourceLoader,
				Environment environment) {
			ManifestLocation location = ManifestLocation.of(environment);
			Resource resource = location.resolve(resourceLoader);
			if (!resource.exists()) {
				throw new ManifestNotFoundException(location.location());
			}
			ManifestLoader loader = ManifestLoader.standard()
				.withPlaceholderResolver(environment::resolveRequiredPlaceholders)
				.withReservedBasePath(actuatorBasePath(environment));
			try (InputStream input = resource.getInputStream()) {
				return loader.load(location.resourceLocation(), input);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not read degradation manifest '" + location.location() + "'", ex);
			}
		}

		@Bean
		@ConditionalOnMissingBean
		DegradationEngine degradationEngine(DegradationManifest manifest,
				ObjectProvider<DegradationListener> listeners) {
			DegradationEngine engine = new DegradationEngine(manifest, Clock.systemUTC());
			listeners.orderedStream().forEach(engine::addListener);
			return engine;
		}

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBooleanProperty(name = "degradation.probes.enabled", matchIfMissing = true)
		DependencyProbing degradationDependencyProbing(DegradationEngine engine) {
			return new DependencyProbing(engine, Clock.systemUTC());
		}

		@Bean
		@ConditionalOnMissingBean
		DegradationChangeReporter degradationChangeReporter(ApplicationEventPublisher publisher) {
			return new DegradationChangeReporter(publisher);
		}

		@Bean
		@ConditionalOnMissingBean
		RouteTable degradationRouteTable(DegradationEngine engine) {
			return RouteTable.compile(engine.manifest());
		}

		@Bean
		@ConditionalOnMissingBean(name = "degradationFilter")
		FilterRegistrationBean<DegradationFilter> degradationFilter(DegradationEngine engine, RouteTable routes,
				DegradationProperties properties, Environment environment) {
			DegradationFilter filter = new DegradationFilter(engine, routes, actuatorBasePath(environment));
			FilterRegistrationBean<DegradationFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setName("degradationFilter");
			registration.setOrder(properties.getFilter().getOrder());
			registration.setDispatcherTypes(DispatcherType.REQUEST);
			return registration;
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(RequestMappingHandlerMapping.class)
		static class ManifestVerificationConfiguration {

			@Bean
			@ConditionalOnMissingBean
			ManifestVerification degradationManifestVerification(DegradationManifest manifest,
					ObjectProvider<RequestMappingHandlerMapping> mappings, DegradationProperties properties) {
				return new ManifestVerification(manifest, mappings, properties.getVerify());
			}

		}

		private static @Nullable String actuatorBasePath(Environment environment) {
			if (!ClassUtils.isPresent(ACTUATOR_ENDPOINT_CLASS, DegradationAutoConfiguration.class.getClassLoader())) {
				return null;
			}
			return environment.getProperty("management.endpoints.web.base-path", "/actuator");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(ManifestUnavailableCondition.class)
	static class InactiveConfiguration {

		@Bean
		static SmartInitializingSingleton degradationInactiveNotice(Environment environment) {
			return () -> LogFactory.getLog(DegradationAutoConfiguration.class)
				.info("No degradation manifest at '" + ManifestLocation.of(environment).location()
						+ "': graceful degradation is inactive");
		}

	}

	static final class ManifestAvailableCondition extends AnyNestedCondition {

		ManifestAvailableCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@Conditional(OnManifestCondition.class)
		static class ManifestResource {

		}

		@ConditionalOnBean(DegradationManifest.class)
		static class ManifestBean {

		}

	}

	static final class ManifestUnavailableCondition extends NoneNestedConditions {

		ManifestUnavailableCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@Conditional(OnManifestCondition.class)
		static class ManifestResource {

		}

		@ConditionalOnBean(DegradationManifest.class)
		static class ManifestBean {

		}

	}

}
