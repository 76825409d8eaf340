package dev.degradation.sample.embedded;

import java.net.URI;
import java.util.NoSuchElementException;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * The embedded dependencies of this application context, as a bean: gives access to the
 * {@link DependencyServer} that {@link EmbeddedDependenciesEnvironmentPostProcessor} started
 * (to switch a dependency's {@link DependencyMode}, for instance) and stops it when the context
 * closes, so that every context, in tests too, stops the server it started.
 */
public final class EmbeddedDependencies implements DisposableBean {

	private final DependencyServer server;

	/**
	 * Create the bean for a server.
	 * @param server the running server
	 */
	public EmbeddedDependencies(DependencyServer server) {
		this.server = server;
	}

	/**
	 * Return the embedded dependencies started for an environment.
	 * @param environment the environment
	 * @return the bean for the server found in the environment
	 * @throws IllegalStateException if no embedded dependency was started for it
	 */
	public static EmbeddedDependencies of(ConfigurableEnvironment environment) {
		PropertySource<?> source = environment.getPropertySources().get(EmbeddedDependenciesPropertySource.NAME);
		if (!(source instanceof EmbeddedDependenciesPropertySource embedded)) {
			throw new IllegalStateException("No embedded dependencies were started: "
					+ EmbeddedDependenciesPropertySource.URL_PROPERTY + " was set, or the "
					+ EmbeddedDependenciesEnvironmentPostProcessor.class.getSimpleName() + " did not run");
		}
		return new EmbeddedDependencies(embedded.getSource());
	}

	/**
	 * Return whether embedded dependencies were started for an environment.
	 * @param environment the environment
	 * @return whether there is a server to expose
	 */
	static boolean startedFor(ConfigurableEnvironment environment) {
		return environment.getPropertySources()
			.get(EmbeddedDependenciesPropertySource.NAME) instanceof EmbeddedDependenciesPropertySource;
	}

	/**
	 * Return the server.
	 * @return the server
	 */
	public DependencyServer server() {
		return this.server;
	}

	/**
	 * Return the base URL of the dependencies.
	 * @return the base URL
	 */
	public URI baseUrl() {
		return this.server.baseUrl();
	}

	/**
	 * Return one dependency.
	 * @param name the dependency name, such as {@code recommendations-api}
	 * @return the dependency
	 * @throws NoSuchElementException if there is no such dependency
	 */
	public EmbeddedDependency dependency(String name) {
		return this.server.dependency(name);
	}

	@Override
	public void destroy() {
		this.server.stop();
	}

}
