package dev.degradation.manifest;

import java.net.URI;

import org.jspecify.annotations.Nullable;

/**
 * A URL that names a service by its id, {@code lb://SERVICE-ID[/path]}, as Spring Cloud's
 * gateway routes and load-balanced clients do: the service is whichever of its instances the
 * load balancer or discovery finds, not one address. The manifest only reads the form; whether
 * the application can find the service's instances is the auto-configuration's to check.
 */
public final class ServiceUrl {

	/** The scheme of a URL that names a service by id. */
	public static final String SCHEME = "lb";

	private ServiceUrl() {
	}

	/**
	 * Return whether a URL names a service by id.
	 * @param url the URL, or {@code null}
	 * @return whether its scheme is {@code lb}
	 */
	public static boolean isServiceUrl(@Nullable URI url) {
		return url != null && SCHEME.equalsIgnoreCase(url.getScheme());
	}

	/**
	 * Return the service id a URL names, as written: discovery is asked for it so first (most
	 * discovery clients compare ids without case; for one that does not, such as the simple one
	 * from properties, the probe then asks for the id discovery knows that differs only in case).
	 * @param url the URL
	 * @return the service id, or {@code null} when the URL does not name a service
	 */
	public static @Nullable String serviceId(@Nullable URI url) {
		if (!isServiceUrl(url) || url.getHost() == null) {
			return null;
		}
		return url.getHost();
	}

	/**
	 * Return why a URL with the {@code lb} scheme is no valid service URL.
	 * @param url the URL
	 * @return the reason, or {@code null} when it is valid
	 */
	static @Nullable String problem(URI url) {
		if (url.getHost() == null) {
			return "names no valid service id (letters, digits, '-' and '.')";
		}
		if (url.getRawUserInfo() != null) {
			return "has user information, which a service id never carries";
		}
		if (url.getPort() != -1) {
			return "has a port: the load balancer or discovery chooses each instance's address";
		}
		if (url.getRawQuery() != null || url.getRawFragment() != null) {
			return "has a query or a fragment";
		}
		return null;
	}

}
