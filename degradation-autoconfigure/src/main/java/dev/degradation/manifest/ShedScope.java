package dev.degradation.manifest;

/**
 * What a failed dependency sheds ({@code defaults.failed_dependency_sheds}).
 */
public enum ShedScope {

	/**
	 * Only the routes that require the failed dependency ({@code routes}, the default): one failing
	 * service never sheds routes that do not need it.
	 */
	ROUTES("routes"),

	/**
	 * The seed's cumulative behaviour ({@code tiers}): the shed level rises to the highest
	 * priority of a tier with a route that requires the failed dependency, so that tier and every
	 * tier below it are shed, and it comes down one tier per hysteresis.
	 */
	TIERS("tiers");

	private final String key;

	ShedScope(String key) {
		this.key = key;
	}

	/**
	 * Return the value as written in the manifest.
	 * @return {@code routes} or {@code tiers}
	 */
	public String key() {
		return this.key;
	}

}
