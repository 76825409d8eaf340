package dev.degradation.sample.embedded;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.EnumerablePropertySource;

/**
 * Exposes the URL of every running {@link EmbeddedDependency} as
 * {@code sample.dependencies.<name>.url}, and carries the dependencies themselves from the
 * environment post-processor to the application context.
 */
public final class EmbeddedDependenciesPropertySource extends EnumerablePropertySource<EmbeddedDependencies> {

	/** Name of this property source in the environment. */
	public static final String NAME = "embeddedDependencies";

	private static final String PREFIX = "sample.dependencies.";

	private static final String SUFFIX = ".url";

	/**
	 * Create a property source for running dependencies.
	 * @param dependencies the dependencies
	 */
	public EmbeddedDependenciesPropertySource(EmbeddedDependencies dependencies) {
		super(NAME, dependencies);
	}

	/**
	 * Return the property that holds the URL of a dependency, such as
	 * {@code sample.dependencies.recommendations-api.url}.
	 * @param name the dependency name
	 * @return the property name
	 */
	public static String urlProperty(String name) {
		return PREFIX + name + SUFFIX;
	}

	@Override
	public String[] getPropertyNames() {
		return getSource().dependencies()
			.stream()
			.map((dependency) -> urlProperty(dependency.name()))
			.toArray(String[]::new);
	}

	@Override
	public @Nullable Object getProperty(String name) {
		if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX) || name.length() <= PREFIX.length() + SUFFIX.length()) {
			return null;
		}
		String dependency = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
		return getSource().dependencies()
			.stream()
			.filter((candidate) -> candidate.name().equals(dependency))
			.findFirst()
			.map((candidate) -> candidate.url().toString())
			.orElse(null);
	}

}
