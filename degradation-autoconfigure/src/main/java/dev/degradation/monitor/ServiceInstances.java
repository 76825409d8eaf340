package dev.degradation.monitor;

import java.net.URI;
import java.util.List;

/**
 * Where the instances of a service named by id are now, as the application's service discovery
 * (Spring Cloud's {@code DiscoveryClient}) knows them. The monitor knows no discovery client: the
 * auto-configuration adapts the application's to this.
 */
public interface ServiceInstances {

	/**
	 * Return the address of every instance of a service registered now.
	 * @param serviceId the service's id
	 * @return each instance's base URL (scheme, host and port), empty when none is registered
	 * @throws RuntimeException when discovery cannot be asked
	 */
	List<URI> instances(String serviceId);

	/**
	 * Return the ids of the services discovery knows now.
	 * @return the ids
	 * @throws RuntimeException when discovery cannot be asked
	 */
	List<String> services();

}
