package dev.degradation.gateway;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.degradation.autoconfigure.DegradationAutoConfiguration;
import dev.degradation.autoconfigure.DegradationClientAutoConfiguration;
import dev.degradation.autoconfigure.DegradationGatewayAutoConfiguration;
import dev.degradation.handler.GatewayHandlerRoutes;
import dev.degradation.client.DependencyGuards;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every condition of {@link DegradationGatewayAutoConfiguration}: a reactive application with the
 * gateway and the guards gets the call guard, one with a route locator gets its routes read as
 * handlers (with or without Resilience4j); without the gateway, without a manifest (no
 * guards), outside a reactive web application or with a guard of the user's own, it gets none of ours.
 */
class DegradationGatewayAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
				DegradationClientAutoConfiguration.class, DegradationGatewayAutoConfiguration.class))
		.withPropertyValues("degradation.manifest=classpath:gateway-manifest.yaml", "degradation.probes.enabled=false",
				"backend.catalog=http://127.0.0.1:9", "backend.reviews=http://127.0.0.1:9",
				"backend.inventory=http://127.0.0.1:9", "backend.feed=http://127.0.0.1:9");

	@Test
	void aReactiveApplicationWithTheGatewayAndTheGuardsGetsTheCallGuard() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(DependencyGuards.class).hasSingleBean(GatewayCallGuard.class);
			assertThat(context.getBean(GatewayCallGuard.class).getOrder()).isEqualTo(GatewayCallGuard.DEFAULT_ORDER);
		});
	}

	@Test
	void aGatewayWithARouteLocatorGetsItsRoutesReadAsHandlersWithoutResilience4j() {
		this.runner.withUserConfiguration(Routes.class)
			.withClassLoader(new FilteredClassLoader(io.github.resilience4j.circuitbreaker.CircuitBreaker.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(GatewayHandlerRoutes.class).doesNotHaveBean(GatewayCallGuard.class);
				assertThat(context.getBean(GatewayHandlerRoutes.class).handlers()).isEmpty();
			});
	}

	@Test
	void withoutARouteLocatorNoRoutesAreRead() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(GatewayHandlerRoutes.class));
	}

	@Test
	void withoutTheGatewayThereIsNoCallGuard() {
		this.runner.withClassLoader(new FilteredClassLoader(GlobalFilter.class))
			.run((context) -> assertThat(context).hasSingleBean(DependencyGuards.class)
				.doesNotHaveBean(GatewayCallGuard.class));
	}

	@Test
	void withoutAManifestThereAreNoGuardsAndNoCallGuard() {
		this.runner.withPropertyValues("degradation.manifest=optional:classpath:none.yaml")
			.run((context) -> assertThat(context).doesNotHaveBean(DependencyGuards.class)
				.doesNotHaveBean(GatewayCallGuard.class));
	}

	@Test
	void anApplicationThatIsNoReactiveWebApplicationGetsNoCallGuard() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
					DegradationClientAutoConfiguration.class, DegradationGatewayAutoConfiguration.class))
			.withPropertyValues("degradation.manifest=classpath:gateway-manifest.yaml",
					"degradation.probes.enabled=false", "backend.catalog=http://127.0.0.1:9",
					"backend.reviews=http://127.0.0.1:9", "backend.inventory=http://127.0.0.1:9",
					"backend.feed=http://127.0.0.1:9")
			.run((context) -> assertThat(context).hasSingleBean(DependencyGuards.class)
				.doesNotHaveBean(GatewayCallGuard.class));
	}

	@Test
	void aCallGuardOfTheUsersOwnReplacesOurs() {
		this.runner.withUserConfiguration(OwnCallGuard.class)
			.run((context) -> assertThat(context).getBean(GatewayCallGuard.class)
				.isSameAs(context.getBean("ownCallGuard")));
	}

	@Configuration(proxyBeanMethods = false)
	static class Routes {

		@Bean
		org.springframework.cloud.gateway.route.RouteLocator routeLocator() {
			return reactor.core.publisher.Flux::empty;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnCallGuard {

		@Bean
		GatewayCallGuard ownCallGuard(DependencyGuards guards) {
			return new GatewayCallGuard(guards, "x-deadline", java.time.Clock.systemUTC(), 0);
		}

	}

}
