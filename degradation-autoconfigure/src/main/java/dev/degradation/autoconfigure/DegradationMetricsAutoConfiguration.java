package dev.degradation.autoconfigure;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationFilter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;

import dev.degradation.actuate.DegradationMeterBinder;
import dev.degradation.actuate.DegradedRequestObservationFilter;
import dev.degradation.actuate.OverloadMeters;
import dev.degradation.actuate.PressureSampler;
import dev.degradation.actuate.PressureSampling;
import dev.degradation.actuate.SignalMeters;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.engine.PressureSignal;
import dev.degradation.reload.ManifestReloader;
import dev.degradation.web.StaleAnswers;

/**
 * Auto-configuration of the degradation meters. Spring Boot binds the {@link MeterBinder} to
 * every meter registry it configures.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(DegradationEngine.class)
@EnableConfigurationProperties(DegradationPressureProperties.class)
public final class DegradationMetricsAutoConfiguration {

	/**
	 * Every {@link SignalMeters} bean adds the meters of a signal that cannot bind its own.
	 */
	@Bean
	@ConditionalOnMissingBean
	DegradationMeterBinder degradationMeterBinder(DegradationEngine engine, ObjectProvider<StaleAnswers> staleAnswers,
			ObjectProvider<SignalMeters> signalMeters) {
		return new DegradationMeterBinder(engine, staleAnswers.getIfAvailable(), signalMeters.orderedStream().toList());
	}

	/**
	 * Reads the pressure rules' meters from the application's registry (an empty one when the
	 * application has none: every rule is then reported as a meter it does not have).
	 */
	@Bean
	@ConditionalOnBean(PressureSignal.class)
	@ConditionalOnMissingBean
	PressureSampler degradationPressureSampler(PressureSignal signal, DegradationEngine engine,
			ObjectProvider<MeterRegistry> registry, DegradationProperties properties) {
		return new PressureSampler(signal, engine, registry.getIfAvailable(SimpleMeterRegistry::new),
				properties.getVerify());
	}

	/**
	 * Reads the rules' meters every {@code degradation.pressure.interval}, after checking at
	 * startup that the application has them.
	 */
	@Bean
	@ConditionalOnBean(PressureSampler.class)
	@ConditionalOnMissingBean
	PressureSampling degradationPressureSampling(PressureSampler sampler, DegradationPressureProperties pressure) {
		return new PressureSampling(sampler, pressure.getInterval());
	}

	/**
	 * A reload is checked against the application's meters as startup is.
	 */
	@Bean
	@ConditionalOnBean(PressureSampler.class)
	ManifestReloader.ReplacementCheck degradationPressureReplacementCheck(PressureSampler sampler) {
		return sampler::checkReplacement;
	}

	/**
	 * Admission's meters, beside the overload signal whose figures they read.
	 */
	@Bean
	@ConditionalOnBean(OverloadSignal.class)
	@ConditionalOnMissingBean
	OverloadMeters degradationOverloadMeters(OverloadSignal overload) {
		return new OverloadMeters(overload);
	}

	@Bean
	@ConditionalOnBean(ManifestReloader.class)
	MeterBinder degradationManifestReloadMeters(ManifestReloader reloader) {
		return (registry) -> {
			FunctionCounter.builder("degradation.manifest.reloads", reloader, ManifestReloader::reloads)
				.description("Manifest reloads, by outcome")
				.tag("outcome", "reloaded")
				.register(registry);
			FunctionCounter.builder("degradation.manifest.reloads", reloader, ManifestReloader::refusals)
				.description("Manifest reloads, by outcome")
				.tag("outcome", "refused")
				.register(registry);
		};
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ ObservationFilter.class, ServerRequestObservationContext.class })
	static class HttpObservationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		DegradedRequestObservationFilter degradedRequestObservationFilter() {
			return new DegradedRequestObservationFilter();
		}

	}

}
