package dev.degradation.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingFilterBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;
import org.springframework.util.unit.DataSize;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.degradation.handler.ManifestVerification;
import dev.degradation.handler.MvcHandlerRoutes;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.web.HandlerRoute;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.servlet.DegradationFilter;
import dev.degradation.web.servlet.FormLimits;

/**
 * Auto-configuration of graceful degradation in a servlet web application: registers the filter
 * that carries out the request decision of {@link DegradationAutoConfiguration} after Spring
 * Security, for Spring MVC's requests, and checks the manifest's routes against Spring MVC's
 * handlers.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ Filter.class, FilterRegistrationBean.class })
@ConditionalOnBean(RequestDecider.class)
@EnableConfigurationProperties(DegradationFilterProperties.class)
public final class DegradationServletAutoConfiguration {

	static final String SECURITY_FILTER_CHAIN_CLASS = "org.springframework.security.web.FilterChainProxy";

	static final String TOMCAT_CLASS = "org.apache.catalina.startup.Tomcat";

	static final String JETTY_CLASS = "org.eclipse.jetty.server.Server";

	static final String SECURITY_FILTER_PROPERTIES_CLASS = "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties";

	@Bean
	@ConditionalOnMissingFilterBean(DegradationFilter.class)
	FilterRegistrationBean<DegradationFilter> degradationFilter(RequestDecider decider,
			DegradationFilterProperties filters, BeanFactory beanFactory,
			ObjectProvider<ServletRegistrationBean<?>> servlets, ResourceLoader resourceLoader, Environment environment) {
		ClassLoader classLoader = resourceLoader.getClassLoader();
		int order = filters.getOrder();
		checkAfterSecurity(order, beanFactory, classLoader);
		DegradationFilter filter = new DegradationFilter(decider,
				filters.getLevelHeader() == DegradationFilterProperties.LevelHeader.ALWAYS,
				formLimits(environment, servedByJetty(classLoader)));
		FilterRegistrationBean<DegradationFilter> registration = new FilterRegistrationBean<>(filter);
		registration.setName("degradationFilter");
		registration.setOrder(order);
		registration.setDispatcherTypes(DispatcherType.REQUEST);
		// Only requests that Spring MVC serves: another servlet's paths are not the manifest's.
		List<String> dispatcherServlets = dispatcherServletNames(servlets, classLoader);
		if (!dispatcherServlets.isEmpty()) {
			registration.setServletNames(dispatcherServlets);
		}
		return registration;
	}

	/**
	 * Whether Jetty serves: Spring Boot prefers Tomcat when both are present.
	 */
	private static boolean servedByJetty(@Nullable ClassLoader classLoader) {
		return !ClassUtils.isPresent(TOMCAT_CLASS, classLoader) && ClassUtils.isPresent(JETTY_CLASS, classLoader);
	}

	/**
	 * The server's own limits on a posted form, from its settings, at their defaults when unset.
	 */
	static FormLimits formLimits(Environment environment, boolean jetty) {
		Binder binder = Binder.get(environment);
		String server = jetty ? "jetty" : "tomcat";
		DataSize bytes = binder.bind("server." + server + ".max-http-form-post-size", DataSize.class)
			.orElse(jetty ? DataSize.ofBytes(200_000) : DataSize.ofMegabytes(2));
		int parameters = binder.bind(jetty ? "server.jetty.max-form-keys" : "server.tomcat.max-parameter-count",
				Integer.class)
			.orElse(1000);
		return new FormLimits((int) Math.max(-1, Math.min(Integer.MAX_VALUE, bytes.toBytes())), parameters);
	}

	private static List<String> dispatcherServletNames(ObjectProvider<ServletRegistrationBean<?>> servlets,
			@Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(DegradationAutoConfiguration.DISPATCHER_SERVLET_CLASS, classLoader)) {
			return List.of();
		}
		Class<?> dispatcherServlet = ClassUtils.resolveClassName(DegradationAutoConfiguration.DISPATCHER_SERVLET_CLASS,
				classLoader);
		return servlets.orderedStream()
			.filter((registration) -> dispatcherServlet.isInstance(registration.getServlet()))
			.map(ServletRegistrationBean::getServletName)
			.toList();
	}

	/**
	 * A fallback must never answer a request that Spring Security has not authenticated yet.
	 * Security's order is the one Boot binds ({@code SecurityFilterProperties}); with Spring
	 * Security but not Boot's security module, Boot's default, which is Spring Security's.
	 */
	private static void checkAfterSecurity(int order, BeanFactory beanFactory, @Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(SECURITY_FILTER_CHAIN_CLASS, classLoader)) {
			return;
		}
		int securityOrder = ClassUtils.isPresent(SECURITY_FILTER_PROPERTIES_CLASS, classLoader)
				? SecurityFilterOrder.of(beanFactory) : SecurityFilterProperties.DEFAULT_FILTER_ORDER;
		if (order <= securityOrder) {
			throw new IllegalStateException("'degradation.filter.order' (" + order
					+ ") must be greater than 'spring.security.filter.order' (" + securityOrder
					+ "), so that Spring Security authenticates a request before a fallback can answer it");
		}
	}

	/**
	 * Boot's security filter properties, registered here too (Boot skips a second registration)
	 * so that the order is bound as Boot binds it even where Boot's security filter
	 * auto-configuration does not run.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { SECURITY_FILTER_CHAIN_CLASS, SECURITY_FILTER_PROPERTIES_CLASS })
	@EnableConfigurationProperties(SecurityFilterProperties.class)
	static class SecurityFilterPropertiesConfiguration {

	}

	/**
	 * Reads Boot's security filter properties; a class of its own, loaded only when they are on
	 * the class path.
	 */
	private static final class SecurityFilterOrder {

		static int of(BeanFactory beanFactory) {
			return beanFactory.getBeanProvider(SecurityFilterProperties.class)
				.getIfAvailable(SecurityFilterProperties::new)
				.getOrder();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RequestMappingHandlerMapping.class)
	static class ManifestVerificationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ManifestVerification degradationManifestVerification(DegradationManifest manifest,
				ObjectProvider<RequestMappingHandlerMapping> mappings, ObjectProvider<RouterFunctionMapping> functions,
				DegradationProperties properties) {
			return new ManifestVerification(manifest, () -> {
				List<HandlerRoute> handlers = new ArrayList<>(
						MvcHandlerRoutes.requestMappings(mappings.orderedStream()));
				handlers.addAll(MvcHandlerRoutes.functionalRoutes(functions.orderedStream()));
				return handlers;
			}, properties.getVerify());
		}

	}

}
