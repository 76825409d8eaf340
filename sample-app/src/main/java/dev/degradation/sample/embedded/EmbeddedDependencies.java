package dev.degradation.sample.embedded;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * The shop's dependencies that run in-process, each an {@link EmbeddedDependency} with its own
 * port. Started by {@link EmbeddedDependenciesEnvironmentPostProcessor} and registered as a bean,
 * which stops them when the application context closes, so that every context, in tests too,
 * stops what it started.
 */
public final class EmbeddedDependencies implements DisposableBean {

	/** Every dependency of the shop, in the order of the manifest's tiers. */
	public static final List<String> NAMES = List.of(EmbeddedDependency.ANALYTICS_COLLECTOR,
			EmbeddedDependency.RECOMMENDATIONS_API, EmbeddedDependency.PERSONALIZATION_SERVICE);

	private final Map<String, EmbeddedDependency> dependencies;

	private EmbeddedDependencies(Map<String, EmbeddedDependency> dependencies) {
		this.dependencies = dependencies;
	}

	/**
	 * Start the shop's three dependencies, all healthy.
	 * @param slowDelay how long a dependency takes to answer in {@link DependencyMode#SLOW}
	 * @return the running dependencies
	 */
	public static EmbeddedDependencies start(Duration slowDelay) {
		return start(NAMES, slowDelay);
	}

	/**
	 * Start some of the shop's dependencies, all healthy, each on its own port. If one cannot
	 * start, those already started are stopped.
	 * @param names the names of the dependencies to start
	 * @param slowDelay how long a dependency takes to answer in {@link DependencyMode#SLOW}
	 * @return the running dependencies
	 */
	public static EmbeddedDependencies start(Collection<String> names, Duration slowDelay) {
		Map<String, EmbeddedDependency> started = new LinkedHashMap<>();
		try {
			for (String name : names) {
				started.put(name, EmbeddedDependency.start(name, slowDelay));
			}
		}
		catch (RuntimeException ex) {
			started.values().forEach(EmbeddedDependency::stop);
			throw ex;
		}
		return new EmbeddedDependencies(started);
	}

	/**
	 * Return the embedded dependencies started for an environment.
	 * @param environment the environment
	 * @return the dependencies, or empty if none was started for it
	 */
	public static Optional<EmbeddedDependencies> of(ConfigurableEnvironment environment) {
		PropertySource<?> source = environment.getPropertySources().get(EmbeddedDependenciesPropertySource.NAME);
		return (source instanceof EmbeddedDependenciesPropertySource embedded) ? Optional.of(embedded.getSource())
				: Optional.empty();
	}

	/**
	 * Return one dependency.
	 * @param name the dependency name, such as {@code recommendations-api}
	 * @return the dependency
	 * @throws NoSuchElementException if no dependency of that name runs here
	 */
	public EmbeddedDependency dependency(String name) {
		EmbeddedDependency dependency = this.dependencies.get(name);
		if (dependency == null) {
			throw new NoSuchElementException("No embedded dependency '" + name + "'; embedded: "
					+ String.join(", ", this.dependencies.keySet()));
		}
		return dependency;
	}

	/**
	 * Return every embedded dependency, in a stable order.
	 * @return the dependencies
	 */
	public List<EmbeddedDependency> dependencies() {
		return List.copyOf(this.dependencies.values());
	}

	/**
	 * Switch every dependency back to {@link DependencyMode#HEALTHY}.
	 */
	public void healAll() {
		this.dependencies.values().forEach((dependency) -> dependency.switchTo(DependencyMode.HEALTHY));
	}

	/**
	 * Stop every dependency. Calling it again does nothing.
	 */
	public void stop() {
		this.dependencies.values().forEach(EmbeddedDependency::stop);
	}

	/**
	 * Return whether every dependency is stopped.
	 * @return whether {@link #stop()} has been called
	 */
	public boolean isStopped() {
		return this.dependencies.values().stream().allMatch(EmbeddedDependency::isStopped);
	}

	@Override
	public void destroy() {
		stop();
	}

	@Override
	public String toString() {
		return this.dependencies.values().toString();
	}

}
