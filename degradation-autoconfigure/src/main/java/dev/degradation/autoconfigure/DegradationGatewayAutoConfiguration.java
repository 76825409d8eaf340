package dev.degradation.autoconfigure;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.degradation.client.DependencyGuards;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.gateway.GatewayCallGuard;
import dev.degradation.gateway.GatewayRouteKind;
import dev.degradation.gateway.ServiceLookupGuard;
import dev.degradation.handler.GatewayHandlerRoutes;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.reactive.RefusedCallForwardMapping;

/**
 * Auto-configuration of graceful degradation at a Spring Cloud Gateway (server WebFlux): the
 * gateway's routes count as the application's handlers ({@link GatewayHandlerRoutes}), and its
 * calls to a backend the manifest declares as a dependency feed that dependency's breaker, and
 * are bounded by its time limit and by the caller's deadline ({@link GatewayCallGuard}), and a
 * call to a service of which the load balancer found no instance is such a failure
 * ({@link ServiceLookupGuard}); a
 * route's {@code CircuitBreaker} filter that sends such a failed call to the application's
 * fallback leaves the answer to the route's declared fallback when it requires the backend
 * ({@link RefusedCallForwardMapping}). The edge's shedding is
 * {@link DegradationReactiveAutoConfiguration}'s web filter, which runs before the gateway.
 */
@AutoConfiguration(after = { DegradationAutoConfiguration.class, DegradationClientAutoConfiguration.class },
		afterName = "org.springframework.cloud.gateway.config.GatewayAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(GlobalFilter.class)
public final class DegradationGatewayAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean({ DegradationManifest.class, RouteLocator.class })
	static class GatewayRoutesConfiguration {

		@Bean
		@ConditionalOnMissingBean
		GatewayHandlerRoutes degradationGatewayHandlerRoutes(RouteLocator routeLocator) {
			return new GatewayHandlerRoutes(routeLocator);
		}

		/**
		 * A gateway's requests are sampled by admission's limit by the route that forwarded them.
		 */
		@Bean
		@ConditionalOnMissingBean
		GatewayRouteKind degradationGatewayRouteKind() {
			return new GatewayRouteKind();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ CircuitBreaker.class, CircuitBreakerOperator.class })
	@ConditionalOnBean(DependencyGuards.class)
	static class GatewayCallGuardConfiguration {

		/**
		 * A route's {@code CircuitBreaker} filter with a {@code fallbackUri} catches a guarded
		 * call's failure and forwards to the application's fallback: a route that requires the
		 * failed dependency gets its declared fallback instead.
		 */
		@Bean
		@ConditionalOnBean(RequestDecider.class)
		@ConditionalOnMissingBean
		RefusedCallForwardMapping degradationRefusedCallForwardMapping(RequestDecider decider) {
			return new RefusedCallForwardMapping(decider, ServerWebExchangeUtils.CIRCUITBREAKER_EXECUTION_EXCEPTION_ATTR);
		}

		@Bean
		@ConditionalOnMissingBean
		GatewayCallGuard degradationGatewayCallGuard(DependencyGuards guards, DegradationEngine engine,
				DegradationRequestProperties properties) {
			return new GatewayCallGuard(guards, properties.getDeadline().getHeader(), engine.clock(),
					GatewayCallGuard.DEFAULT_ORDER);
		}

		/**
		 * A route to a service that has no instance fails in the load balancer's filter, before
		 * the call guard: its dependency's breaker hears of it, and a route that requires it gets
		 * its declared fallback.
		 */
		@Bean
		@ConditionalOnMissingBean
		ServiceLookupGuard degradationServiceLookupGuard(DependencyGuards guards) {
			return new ServiceLookupGuard(guards);
		}

	}

}
