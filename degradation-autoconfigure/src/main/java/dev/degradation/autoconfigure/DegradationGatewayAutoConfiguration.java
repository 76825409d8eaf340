package dev.degradation.autoconfigure;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.context.annotation.Bean;

import dev.degradation.client.DependencyGuards;
import dev.degradation.gateway.GatewayCallGuard;

/**
 * Auto-configuration of graceful degradation at a Spring Cloud Gateway (server WebFlux): the
 * gateway's calls to a backend the manifest declares as a dependency feed that dependency's
 * breaker, and are bounded by its time limit ({@link GatewayCallGuard}). The edge's shedding is
 * {@link DegradationReactiveAutoConfiguration}'s web filter, which runs before the gateway.
 */
@AutoConfiguration(after = DegradationClientAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({ GlobalFilter.class, CircuitBreaker.class })
@ConditionalOnBean(DependencyGuards.class)
public final class DegradationGatewayAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	GatewayCallGuard degradationGatewayCallGuard(DependencyGuards guards) {
		return new GatewayCallGuard(guards, GatewayCallGuard.DEFAULT_ORDER);
	}

}
