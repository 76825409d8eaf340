package dev.degradation.reload;

import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/**
 * The configured manifest location, understood once for the condition that decides whether the
 * starter is active, the bean that loads the manifest and the reloader. Read from the Environment
 * as it is now, not from bound properties: the condition runs before any bean exists, and a
 * reload after a configuration refresh must see the location the refresh brought.
 *
 * @param location the location as configured, {@code optional:} prefix included
 * @param resourceLocation the location without the prefix
 * @param optional whether the manifest may be absent
 */
public record ManifestLocation(String location, String resourceLocation, boolean optional) {

	/**
	 * The property that names the location.
	 */
	public static final String PROPERTY = "degradation.manifest";

	/**
	 * Default location: optional, so that an application without a manifest starts with the
	 * starter inactive.
	 */
	public static final String DEFAULT = "optional:classpath:degradation-manifest.yaml";

	private static final String OPTIONAL_PREFIX = "optional:";

	/**
	 * Return the location the Environment configures now.
	 * @param environment the Environment
	 * @return the location, the default when none is set
	 */
	public static ManifestLocation of(Environment environment) {
		String location = environment.getProperty(PROPERTY, DEFAULT).trim();
		boolean optional = location.startsWith(OPTIONAL_PREFIX);
		return new ManifestLocation(location, optional ? location.substring(OPTIONAL_PREFIX.length()) : location,
				optional);
	}

	/**
	 * Return the resource at this location.
	 * @param resourceLoader how the location is resolved
	 * @return the resource, which may not exist
	 */
	public Resource resolve(ResourceLoader resourceLoader) {
		return resourceLoader.getResource(this.resourceLocation);
	}

}
