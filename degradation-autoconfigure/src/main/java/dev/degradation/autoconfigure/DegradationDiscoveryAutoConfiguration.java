package dev.degradation.autoconfigure;

import java.time.Clock;
import java.time.Duration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.ReactiveDiscoveryClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import dev.degradation.discovery.DiscoveredServices;
import dev.degradation.discovery.ServiceIdVerification;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.monitor.HttpHealthProbe;
import dev.degradation.monitor.ServiceHealthSource;
import dev.degradation.monitor.ServiceInstances;
import dev.degradation.reload.ManifestReloader;

/**
 * Auto-configuration of dependencies named by service id ({@code lb://SERVICE-ID}) in a Spring
 * Cloud application: a {@code health_url} that names a service is probed at the instances the
 * application's discovery client knows ({@link ServiceHealthSource}), and the manifest's URLs are
 * checked against discovery at startup ({@link ServiceIdVerification}): without Spring Cloud on
 * the class path nothing else changes, and a manifest that names a service by id fails startup
 * (or its reload is refused) saying why.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class,
		afterName = { "org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClientAutoConfiguration",
				"org.springframework.cloud.client.discovery.composite.CompositeDiscoveryClientAutoConfiguration",
				"org.springframework.cloud.client.discovery.simple.reactive.SimpleReactiveDiscoveryClientAutoConfiguration",
				"org.springframework.cloud.client.discovery.composite.reactive.ReactiveCompositeDiscoveryClientAutoConfiguration" })
@ConditionalOnBean(DegradationEngine.class)
public final class DegradationDiscoveryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ServiceIdVerification degradationServiceIdVerification(DegradationManifest manifest,
			ObjectProvider<ServiceInstances> discovery, DegradationProperties properties) {
		return new ServiceIdVerification(manifest, discovery, properties.getVerify());
	}

	/** A reloaded manifest's URLs are checked against discovery as the first one's were. */
	@Bean
	ManifestReloader.ReplacementCheck degradationServiceIdReplacementCheck(ServiceIdVerification verification) {
		return verification::checkReplacement;
	}

	/**
	 * The application's discovery client, as the probes ask it. In a class of its own: its bean
	 * methods' types are Spring Cloud's, which an application without it does not have.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(DiscoveryClient.class)
	static class DiscoveryConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(DiscoveryClient.class)
		ServiceInstances degradationServiceInstances(DiscoveryClient discovery) {
			return DiscoveredServices.of(discovery);
		}

		@Bean
		@ConditionalOnMissingBean({ ServiceInstances.class, DiscoveryClient.class })
		@ConditionalOnBean(ReactiveDiscoveryClient.class)
		ServiceInstances degradationReactiveServiceInstances(ReactiveDiscoveryClient discovery) {
			// Asked on a probe's own thread; a probe is bounded by its dependency's timeout.
			return DiscoveredServices.of(discovery, Duration.ofSeconds(10));
		}

		@Bean
		@Order(Ordered.LOWEST_PRECEDENCE)
		@ConditionalOnBean(ServiceInstances.class)
		ServiceHealthSource degradationServiceHealthSource(ServiceInstances discovery, ObjectProvider<Clock> clock) {
			Clock probeClock = clock.getIfUnique(Clock::systemUTC);
			return new ServiceHealthSource(discovery, new HttpHealthProbe(probeClock), probeClock);
		}

	}

}
