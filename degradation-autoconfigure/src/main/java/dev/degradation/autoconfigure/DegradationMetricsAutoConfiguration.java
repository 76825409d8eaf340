package dev.degradation.autoconfigure;

import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationFilter;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;

import dev.degradation.actuate.DegradationMeterBinder;
import dev.degradation.actuate.DegradedRequestObservationFilter;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.web.StaleAnswers;

/**
 * Auto-configuration of the degradation meters. Spring Boot binds the {@link MeterBinder} to
 * every meter registry it configures.
 */
@AutoConfiguration(after = DegradationAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(DegradationEngine.class)
public final class DegradationMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DegradationMeterBinder degradationMeterBinder(DegradationEngine engine) {
		return new DegradationMeterBinder(engine);
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

	/**
	 * The copies of the 'stale' routes: {@code degradation.stale.entries} and
	 * {@code degradation.stale.bytes} (gauges), {@code degradation.stale.answers} (counter; tag
	 * outcome: stored, served, evicted, refused).
	 */
	@Bean
	@ConditionalOnMissingBean(name = "degradationStaleAnswersMeterBinder")
	@ConditionalOnBean(StaleAnswers.class)
	MeterBinder degradationStaleAnswersMeterBinder(StaleAnswers answers) {
		return (registry) -> {
			Gauge.builder("degradation.stale.entries", answers, StaleAnswers::entries)
				.description("Copies held by the 'stale' routes")
				.register(registry);
			Gauge.builder("degradation.stale.bytes", answers, StaleAnswers::bytes)
				.description("Memory held by the copies of the 'stale' routes")
				.baseUnit("bytes")
				.register(registry);
			Map<String, ToDoubleFunction<StaleAnswers>> outcomes = Map.of("stored", StaleAnswers::stored, "served",
					StaleAnswers::served, "evicted", StaleAnswers::evicted, "refused", StaleAnswers::refused);
			outcomes.forEach((outcome, count) -> FunctionCounter.builder("degradation.stale.answers", answers, count)
				.description("Answers of the 'stale' routes stored, served from a copy, evicted or refused")
				.tag("outcome", outcome)
				.register(registry));
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
