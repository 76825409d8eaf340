package dev.degradation.discovery;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.ManifestProblem;
import dev.degradation.manifest.ServiceUrl;
import dev.degradation.manifest.VerificationMode;
import dev.degradation.monitor.ServiceInstances;

/**
 * Checks, once every bean is ready, the manifest's URLs against the application's service
 * discovery. A {@code base_url} or {@code health_url} that names a service by id
 * ({@code lb://SERVICE-ID}) needs Spring Cloud's discovery client: without it the service's
 * instances cannot be found, so startup fails, whatever {@code degradation.verify} says, with the
 * dependency's position. A URL written {@code http://NAME} whose host is a bare name that does not
 * resolve while discovery knows a service {@code NAME} is almost certainly meant as that service:
 * the health probe cannot reach it and a gateway route to {@code lb://NAME} does not match it; it
 * is warned about with the suggestion {@code lb://NAME} (or, with
 * {@code degradation.verify=strict}, refused). A manifest that is to replace the active one on a
 * reload is checked the same way ({@link #checkReplacement}), so that a reload cannot bring in
 * what startup would have refused.
 */
public class ServiceIdVerification implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(ServiceIdVerification.class);

	private final DegradationManifest manifest;

	private final ObjectProvider<ServiceInstances> discovery;

	private final VerificationMode mode;

	private final Predicate<String> resolves;

	/**
	 * Create a verification.
	 * @param manifest the manifest to check
	 * @param discovery the application's service discovery, if it has one
	 * @param mode what to do with a URL that names a service by host
	 */
	public ServiceIdVerification(DegradationManifest manifest, ObjectProvider<ServiceInstances> discovery,
			VerificationMode mode) {
		this(manifest, discovery, mode, ServiceIdVerification::resolves);
	}

	ServiceIdVerification(DegradationManifest manifest, ObjectProvider<ServiceInstances> discovery,
			VerificationMode mode, Predicate<String> resolves) {
		this.manifest = manifest;
		this.discovery = discovery;
		this.mode = mode;
		this.resolves = resolves;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<ManifestProblem> refusing = check(this.manifest, "\n(set 'degradation.verify=strict' to refuse to start instead)");
		if (!refusing.isEmpty()) {
			throw new InvalidManifestException(this.manifest.source(), refusing);
		}
	}

	/**
	 * Check a manifest that is to replace the active one on a reload, as startup checked the
	 * first: a URL that names a service by id without discovery refuses it whatever
	 * {@code degradation.verify} says, and a service named by host refuses it under
	 * {@code strict} and is warned about otherwise.
	 * @param replacement the manifest that is to become active
	 * @return the problems that refuse it, empty when it may become active
	 */
	public List<ManifestProblem> checkReplacement(DegradationManifest replacement) {
		return check(replacement, "\n(set 'degradation.verify=strict' to refuse such a manifest instead)");
	}

	private List<ManifestProblem> check(DegradationManifest manifest, String hint) {
		ServiceInstances services = this.discovery.getIfAvailable();
		if (services == null) {
			return withoutDiscovery(manifest);
		}
		if (this.mode == VerificationMode.OFF) {
			return List.of();
		}
		List<String> known;
		try {
			known = services.services();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not list the services discovery knows, to check the manifest's URLs against", ex);
			return List.of();
		}
		List<ManifestProblem> problems = servicesByHost(manifest, known);
		if (problems.isEmpty() || this.mode == VerificationMode.STRICT) {
			return problems;
		}
		logger.warn(new InvalidManifestException(manifest.source(), problems).getMessage() + hint);
		return List.of();
	}

	/**
	 * Return a problem for every URL that names a service by id, for an application without
	 * Spring Cloud's discovery.
	 * @param manifest the manifest
	 * @return the problems, located at their dependencies
	 */
	static List<ManifestProblem> withoutDiscovery(DegradationManifest manifest) {
		List<ManifestProblem> problems = new ArrayList<>();
		for (Dependency dependency : manifest.dependencies()) {
			for (String key : List.of("base_url", "health_url")) {
				URI url = url(dependency, key);
				if (ServiceUrl.isServiceUrl(url)) {
					problems.add(new ManifestProblem(manifest.source(), dependency.position(),
							"dependencies." + dependency.name() + "." + key,
							"'" + url + "': lb:// names a service by id and needs Spring Cloud's discovery client on "
									+ "the class path (spring-cloud-commons with a discovery client such as Eureka, "
									+ "Consul, Kubernetes or spring.cloud.discovery.client.simple.instances), which "
									+ "this application does not have; name the dependency by its address instead"));
				}
			}
		}
		return problems;
	}

	private List<ManifestProblem> servicesByHost(DegradationManifest manifest, List<String> known) {
		List<ManifestProblem> problems = new ArrayList<>();
		for (Dependency dependency : manifest.dependencies()) {
			for (String key : List.of("base_url", "health_url")) {
				URI url = url(dependency, key);
				String host = (url != null && !ServiceUrl.isServiceUrl(url)) ? url.getHost() : null;
				if (host == null || !bareName(host)) {
					continue;
				}
				String service = known.stream().filter(host::equalsIgnoreCase).findFirst().orElse(null);
				if (service == null || this.resolves.test(host)) {
					continue;
				}
				String path = (url.getRawPath() != null) ? url.getRawPath() : "";
				problems.add(new ManifestProblem(manifest.source(), dependency.position(),
						"dependencies." + dependency.name() + "." + key,
						"'" + url + "' names the host '" + host + "', which does not resolve, while discovery knows "
								+ "a service '" + service + "': write lb://" + service + path
								+ " to name the service (it then matches gateway routes to lb://" + service
								+ " and @LoadBalanced calls to http://" + service + "/..., and a health_url is probed "
								+ "at the service's instances)"));
			}
		}
		return problems;
	}

	private static @Nullable URI url(Dependency dependency, String key) {
		return key.equals("base_url") ? dependency.baseUrl() : dependency.healthUrl();
	}

	/** A host without dots that is neither localhost nor an address: a name only discovery knows. */
	private static boolean bareName(String host) {
		return host.indexOf('.') < 0 && host.indexOf(':') < 0 && !host.toLowerCase(Locale.ROOT).equals("localhost");
	}

	private static boolean resolves(String host) {
		try {
			InetAddress.getByName(host);
			return true;
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

}
