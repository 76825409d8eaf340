package dev.degradation.sample.embedded;

import java.time.Duration;
import java.util.List;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Starts the embedded dependencies while the environment is prepared, before any bean exists, so
 * that the degradation manifest's {@code ${sample.dependencies.<name>.url}} placeholders resolve
 * when it loads. A dependency whose URL is already set (command line, environment variable,
 * {@code application.properties}, test properties) is not started, so that the shop can be
 * pointed at real dependencies, all or some of them.
 *
 * <p>The dependencies are stopped by the {@link EmbeddedDependencies} bean when the application
 * context closes.
 */
public class EmbeddedDependenciesEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/**
	 * Run last, after the configuration files and every other property source are in the
	 * environment, so that a URL set anywhere is seen before a dependency is started for nothing.
	 */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE;

	/** The property holding how long an embedded dependency takes to answer when slow. */
	public static final String SLOW_DELAY_PROPERTY = "sample.embedded.slow-delay";

	/**
	 * Slow delay unless configured: longer than every probe timeout of the sample manifest (at most
	 * 2 s) and than the shop's own calls (2 s), so that a slow dependency fails both.
	 */
	public static final Duration DEFAULT_SLOW_DELAY = Duration.ofSeconds(3);

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
		List<String> configured = EmbeddedDependencies.NAMES.stream()
			.filter((name) -> environment.containsProperty(EmbeddedDependenciesPropertySource.urlProperty(name)))
			.toList();
		for (String name : configured) {
			String property = EmbeddedDependenciesPropertySource.urlProperty(name);
			this.logger.info("Using " + name + " at " + environment.getProperty(property) + " (" + property
					+ " is set); not embedded");
		}
		List<String> embedded = EmbeddedDependencies.NAMES.stream().filter((name) -> !configured.contains(name)).toList();
		if (embedded.isEmpty()) {
			return;
		}
		Duration slowDelay = Binder.get(environment)
			.bind(SLOW_DELAY_PROPERTY, Duration.class)
			.orElse(DEFAULT_SLOW_DELAY);
		EmbeddedDependencies dependencies = EmbeddedDependencies.start(embedded, slowDelay);
		environment.getPropertySources().addLast(new EmbeddedDependenciesPropertySource(dependencies));
		this.logger.info("Embedded dependencies listening on 127.0.0.1: " + dependencies);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
