package dev.degradation.autoconfigure;

import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/**
 * The configured manifest location, understood once for both the condition that decides whether
 * the starter is active and the bean that loads the manifest.
 *
 * @param location the location as configured, {@code optional:} prefix included
 * @param resourceLocation the location without the prefix
 * @param optional whether the manifest may be absent
 */
record ManifestLocation(String location, String resourceLocation, boolean optional) {

	private static final String OPTIONAL_PREFIX = "optional:";

	static ManifestLocation of(Environment environment) {
		String location = environment.getProperty("degradation.manifest", DegradationProperties.DEFAULT_MANIFEST)
			.trim();
		boolean optional = location.startsWith(OPTIONAL_PREFIX);
		return new ManifestLocation(location, optional ? location.substring(OPTIONAL_PREFIX.length()) : location,
				optional);
	}

	Resource resolve(ResourceLoader resourceLoader) {
		return resourceLoader.getResource(this.resourceLocation);
	}

}
