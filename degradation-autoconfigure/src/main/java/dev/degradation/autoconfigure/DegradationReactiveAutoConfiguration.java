package dev.degradation.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.session.CookieWebSessionIdResolver;
import org.springframework.web.server.session.DefaultWebSessionManager;
import org.springframework.web.server.session.WebSessionManager;

import dev.degradation.handler.ManifestVerification;
import dev.degradation.handler.WebFluxHandlerContributor;
import dev.degradation.handler.WebFluxHandlerRoutes;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.web.HandlerRoute;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.reactive.DegradationWebFilter;
import dev.degradation.web.reactive.ReactorNettyVersionCheck;

/**
 * Auto-configuration of graceful degradation in a reactive web application (WebFlux, and Spring
 * Cloud Gateway on it): the web filter that carries out the request decision of
 * {@link DegradationAutoConfiguration} after Spring Security, and the check of the manifest's
 * routes against WebFlux's handlers.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(WebFilter.class)
@ConditionalOnBean(RequestDecider.class)
@EnableConfigurationProperties(DegradationFilterProperties.class)
public final class DegradationReactiveAutoConfiguration {

	static final String SECURITY_WEB_FILTER_CHAIN_CLASS = "org.springframework.security.web.server.WebFilterChainProxy";

	/**
	 * The order of Spring Security's reactive web filter chain: Spring Security fixes it
	 * ({@code WebFluxSecurityConfiguration.WEB_FILTER_CHAIN_FILTER_ORDER}, in a class that is not
	 * public) and Boot has no property for it, unlike the servlet filter's.
	 */
	static final int SECURITY_WEB_FILTER_ORDER = -100;

	@Bean
	@ConditionalOnMissingBean(DegradationWebFilter.class)
	DegradationWebFilter degradationWebFilter(RequestDecider decider, DegradationFilterProperties filters,
			ResourceLoader resourceLoader, ObjectProvider<WebSessionManager> sessions) {
		int order = filters.getOrder();
		checkAfterSecurity(order, resourceLoader.getClassLoader());
		ReactorNettyVersionCheck.warnIfAffected(resourceLoader.getClassLoader());
		DegradationWebFilter filter = new DegradationWebFilter(decider,
				filters.getLevelHeader() == DegradationFilterProperties.LevelHeader.ALWAYS, order);
		// The session cookie a fallback keeps is the one the application's session manager writes.
		if (sessions.getIfUnique() instanceof DefaultWebSessionManager manager
				&& manager.getSessionIdResolver() instanceof CookieWebSessionIdResolver cookies) {
			filter.setSessionCookieName(cookies.getCookieName());
		}
		return filter;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RequestMappingHandlerMapping.class)
	static class ManifestVerificationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ManifestVerification degradationManifestVerification(DegradationManifest manifest,
				ObjectProvider<RequestMappingHandlerMapping> mappings, ObjectProvider<RouterFunctionMapping> functions,
				ObjectProvider<WebFluxHandlerContributor> contributors, DegradationProperties properties) {
			return new ManifestVerification(manifest, () -> {
				List<HandlerRoute> handlers = new ArrayList<>(
						WebFluxHandlerRoutes.requestMappings(mappings.orderedStream()));
				handlers.addAll(WebFluxHandlerRoutes.functionalRoutes(functions.orderedStream()));
				contributors.orderedStream().forEach((contributor) -> handlers.addAll(contributor.handlers()));
				return handlers;
			}, properties.getVerify());
		}

	}

	/**
	 * A fallback, or a refused write, must never answer a request that Spring Security has not
	 * authenticated yet.
	 * @param order the order of a web filter of the starter
	 * @param classLoader the application's class loader
	 */
	static void checkAfterSecurity(int order, @Nullable ClassLoader classLoader) {
		if (ClassUtils.isPresent(SECURITY_WEB_FILTER_CHAIN_CLASS, classLoader) && order <= SECURITY_WEB_FILTER_ORDER) {
			throw new IllegalStateException("'degradation.filter.order' (" + order
					+ ") must be greater than Spring Security's web filter order (" + SECURITY_WEB_FILTER_ORDER
					+ "), so that Spring Security authenticates a request before a fallback can answer it");
		}
	}

}
