package dev.degradation.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

import dev.degradation.reload.ManifestLocation;

/**
 * The manifest's file as the application started with it, read once: the manifest is loaded from
 * these bytes, and the reloader compares a changed file with them.
 *
 * @param location where it was read from
 * @param content its bytes
 */
record ManifestFile(ManifestLocation location, byte[] content) {

	/**
	 * Read the manifest's file from the configured location.
	 * @param resourceLoader how the location is resolved
	 * @param environment where the location is configured
	 * @return the file
	 * @throws ManifestNotFoundException if nothing is at the location
	 */
	static ManifestFile read(ResourceLoader resourceLoader, Environment environment) {
		ManifestLocation location = ManifestLocation.of(environment);
		Resource resource = location.resolve(resourceLoader);
		if (!resource.exists()) {
			throw new ManifestNotFoundException(location.location());
		}
		try (InputStream input = resource.getInputStream()) {
			return new ManifestFile(location, input.readAllBytes());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read degradation manifest '" + location.location() + "'", ex);
		}
	}

	@Override
	public String toString() {
		return "ManifestFile[" + this.location.location() + ", " + this.content.length + " bytes]";
	}

}
