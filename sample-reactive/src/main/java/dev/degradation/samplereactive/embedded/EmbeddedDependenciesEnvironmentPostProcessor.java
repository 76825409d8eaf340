package dev.degradation.samplereactive.embedded;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the embedded dependencies while the environment is prepared, before any bean exists, so
 * that the manifest's {@code ${sample.dependencies.<name>.url}} placeholders resolve when it
 * loads; registers them as a bean and stops them when the application context closes. Nothing is
 * started when {@code sample.dependencies.embedded=false} (the URLs then come from the
 * configuration, pointing at real services).
 */
public class EmbeddedDependenciesEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** The name of the property source holding the dependencies' URLs. */
	public static final String PROPERTY_SOURCE = "sampleEmbeddedDependencies";

	private final Log logger;

	/**
	 * Create a post-processor; called by Spring Boot.
	 * @param logFactory the factory of loggers that print once logging is initialized
	 */
	public EmbeddedDependenciesEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this.logger = logFactory.getLog(EmbeddedDependenciesEnvironmentPostProcessor.class);
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		// Run once per environment: Spring Cloud's bootstrap and test contexts prepare one more.
		if (environment.getPropertySources().contains(PROPERTY_SOURCE)
				|| !environment.getProperty("sample.dependencies.embedded", Boolean.class, true)) {
			return;
		}
		EmbeddedDependencies dependencies = EmbeddedDependencies.start();
		Map<String, Object> urls = new LinkedHashMap<>();
		dependencies.all().forEach((dependency) -> urls.put("sample.dependencies." + dependency.name() + ".url",
				dependency.url()));
		environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE, urls));
		application.addInitializers((ConfigurableApplicationContext context) -> {
			context.getBeanFactory().registerSingleton("embeddedDependencies", dependencies);
			context.addApplicationListener((ContextClosedEvent closed) -> dependencies.close());
		});
		this.logger.info("Embedded dependencies listening on 127.0.0.1: " + dependencies);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
