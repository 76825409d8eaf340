package dev.degradation.sample.embedded;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.EnumerablePropertySource;

/**
 * Exposes the base URL of a running {@link DependencyServer} as {@value #URL_PROPERTY}, and
 * carries the server itself from the environment post-processor to the application context.
 */
public final class EmbeddedDependenciesPropertySource extends EnumerablePropertySource<DependencyServer> {

	/** Name of this property source in the environment. */
	public static final String NAME = "embeddedDependencies";

	/** The property holding the base URL of the shop's dependencies. */
	public static final String URL_PROPERTY = "sample.dependencies.url";

	private static final String[] PROPERTY_NAMES = { URL_PROPERTY };

	/**
	 * Create a property source for a running server.
	 * @param server the server
	 */
	public EmbeddedDependenciesPropertySource(DependencyServer server) {
		super(NAME, server);
	}

	@Override
	public String[] getPropertyNames() {
		return PROPERTY_NAMES.clone();
	}

	@Override
	public @Nullable Object getProperty(String name) {
		return URL_PROPERTY.equals(name) ? getSource().baseUrl().toString() : null;
	}

}
