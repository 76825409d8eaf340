package dev.degradation.sample.embedded;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Starts the embedded dependencies while the environment is prepared, before any bean exists, so
 * that the degradation manifest's {@code ${sample.dependencies.url}} placeholders resolve when it
 * loads. Does nothing when {@value EmbeddedDependenciesPropertySource#URL_PROPERTY} is already
 * set (command line, environment variable, {@code application.properties}, test properties), so
 * that the shop can be pointed at real dependencies.
 *
 * <p>The server is stopped by {@link EmbeddedDependencies} when the application context closes.
 */
public class EmbeddedDependenciesEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/**
	 * Run last, after the configuration files and every other property source are in the
	 * environment, so that a URL set anywhere is seen before a server is started for nothing.
	 */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE;

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
		if (environment.getPropertySources().contains(EmbeddedDependenciesPropertySource.NAME)) {
			return;
		}
		String configured = environment.getProperty(EmbeddedDependenciesPropertySource.URL_PROPERTY);
		if (configured != null) {
			this.logger.info("Using the dependencies at " + configured + " ("
					+ EmbeddedDependenciesPropertySource.URL_PROPERTY + " is set); no embedded dependency started");
			return;
		}
		DependencyServer server = DependencyServer.start();
		environment.getPropertySources().addLast(new EmbeddedDependenciesPropertySource(server));
		this.logger.info("Embedded dependencies listening on " + server.baseUrl() + ": " + server.dependencies());
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
