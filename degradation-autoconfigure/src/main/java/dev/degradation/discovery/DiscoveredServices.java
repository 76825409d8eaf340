package dev.degradation.discovery;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.ReactiveDiscoveryClient;

import dev.degradation.monitor.ServiceInstances;

/**
 * The application's Spring Cloud discovery client as the monitor asks it: the blocking
 * {@link DiscoveryClient} where the application has one (Spring Cloud defines it by default, also
 * at a WebFlux gateway), else the {@link ReactiveDiscoveryClient}, waited for on the probe's own
 * thread within a bound. Loaded only when Spring Cloud Commons is on the class path.
 */
public final class DiscoveredServices implements ServiceInstances {

	private final @Nullable DiscoveryClient blocking;

	private final @Nullable ReactiveDiscoveryClient reactive;

	private final Duration bound;

	private DiscoveredServices(@Nullable DiscoveryClient blocking, @Nullable ReactiveDiscoveryClient reactive,
			Duration bound) {
		this.blocking = blocking;
		this.reactive = reactive;
		this.bound = bound;
	}

	public static DiscoveredServices of(DiscoveryClient client) {
		return new DiscoveredServices(client, null, Duration.ZERO);
	}

	public static DiscoveredServices of(ReactiveDiscoveryClient client, Duration bound) {
		return new DiscoveredServices(null, client, bound);
	}

	/**
	 * Return the instances of a service, asked by its id as written, then, when discovery knows
	 * none by it, by the id discovery knows that differs from it only in case: the guards match a
	 * service's calls without case, and a discovery client that compares with case (the simple
	 * one from properties) would otherwise have the probe fail a service the load balancer serves
	 * by its own spelling.
	 * @param serviceId the service id
	 * @return the instances' addresses
	 */
	@Override
	public List<URI> instances(String serviceId) {
		List<URI> instances = asked(serviceId);
		if (!instances.isEmpty()) {
			return instances;
		}
		String known = services().stream()
			.filter((service) -> !service.equals(serviceId) && service.equalsIgnoreCase(serviceId))
			.findFirst()
			.orElse(null);
		return (known != null) ? asked(known) : instances;
	}

	private List<URI> asked(String serviceId) {
		List<ServiceInstance> instances = (this.blocking != null) ? this.blocking.getInstances(serviceId)
				: Objects.requireNonNull(this.reactive).getInstances(serviceId).collectList().block(this.bound);
		return (instances != null) ? instances.stream().map(ServiceInstance::getUri).filter(Objects::nonNull).toList()
				: List.of();
	}

	@Override
	public List<String> services() {
		List<String> services = (this.blocking != null) ? this.blocking.getServices()
				: Objects.requireNonNull(this.reactive).getServices().collectList().block(this.bound);
		return (services != null) ? services : List.of();
	}

}
