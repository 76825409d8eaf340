package dev.degradation.autoconfigure;

/**
 * Thrown when {@code degradation.manifest} names a location, without the {@code optional:}
 * prefix, where no manifest exists.
 */
public class ManifestNotFoundException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String location;

	/**
	 * Create a new exception.
	 * @param location the configured location
	 */
	public ManifestNotFoundException(String location) {
		super("Degradation manifest '" + location + "' does not exist");
		this.location = location;
	}

	/**
	 * Return the configured location.
	 * @return the location
	 */
	public String getLocation() {
		return this.location;
	}

}
