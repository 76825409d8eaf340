package dev.degradation.monitor;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.ServiceUrl;

/**
 * Judges a dependency whose {@code health_url} names a service by id
 * ({@code lb://SERVICE-ID/path}) by its instances, as discovery knows them at each probe: the
 * instances come and go, and each probe asks discovery anew.
 *
 * <p>The rule: one probe of the service is one result in its window, and it is healthy when at
 * least one instance answers its health path with a 2xx within the dependency's timeout, since a
 * load-balanced call can then be served. The instances are asked in discovery's order until one
 * answers healthy, all within one budget (the dependency's {@code timeout_ms}), so that a hanging
 * instance costs no more than a hanging single address would. A service of which discovery knows
 * no instance is a failed probe ({@code no_instance}): nothing could serve a call. When every
 * instance answered {@code 404}, the health path is wrong, which is no evidence (as for a single
 * health URL). Otherwise the probe failed, with each instance's outcome in its detail.
 */
public final class ServiceHealthSource implements DependencyHealthSource {

	private final ServiceInstances discovery;

	private final HttpHealthProbe http;

	private final Clock clock;

	/**
	 * Create a source.
	 * @param discovery where the instances of a service are
	 * @param http the probe of each instance's health URL
	 * @param clock the clock that stamps the results
	 */
	public ServiceHealthSource(ServiceInstances discovery, HttpHealthProbe http, Clock clock) {
		this.discovery = discovery;
		this.http = http;
		this.clock = clock;
	}

	@Override
	public boolean supports(Dependency dependency) {
		return ServiceUrl.isServiceUrl(dependency.healthUrl());
	}

	@Override
	public ProbeResult probe(Dependency dependency) {
		long startNanos = System.nanoTime();
		URI healthUrl = dependency.healthUrl();
		String service = ServiceUrl.serviceId(healthUrl);
		if (healthUrl == null || service == null) {
			return result(false, ProbeResult.ERROR, "no service id in health_url " + healthUrl, startNanos);
		}
		List<URI> instances;
		try {
			instances = this.discovery.instances(service);
		}
		catch (RuntimeException ex) {
			return result(false, ProbeResult.ERROR,
					"discovery failed to list the instances of " + service + ": " + ex.getMessage(), startNanos);
		}
		if (instances.isEmpty()) {
			return result(false, ProbeResult.NO_INSTANCE, "no instance of " + service + " in discovery", startNanos);
		}
		Duration timeout = dependency.healthCheck().timeout();
		long deadline = startNanos + timeout.toNanos();
		List<String> outcomes = new ArrayList<>();
		String failure = null;
		for (URI instance : instances) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				outcomes.add(authority(instance) + " not probed (no time left)");
				failure = (failure != null) ? failure : ProbeResult.TIMEOUT;
				continue;
			}
			ProbeResult probed = this.http.probe(at(instance, healthUrl), Duration.ofNanos(left));
			if (probed.healthy()) {
				return result(true, ProbeResult.OK, authority(instance) + " answered " + probed.detail() + " ("
						+ instances.size() + ((instances.size() == 1) ? " instance)" : " instances)"), startNanos);
			}
			outcomes.add(authority(instance) + " " + probed.outcome() + ": " + probed.detail());
			if (failure == null && probed.counts()) {
				failure = probed.outcome();
			}
		}
		return result(false, (failure != null) ? failure : ProbeResult.NOT_FOUND,
				"no instance of " + service + " answered healthy: " + String.join("; ", outcomes), startNanos);
	}

	@Override
	public void abort(Thread prober) {
		this.http.abort(prober);
	}

	@Override
	public void abortAll() {
		this.http.abortAll();
	}

	/** The instance's health URL: its scheme, host and port with the service URL's path. */
	private static URI at(URI instance, URI healthUrl) {
		String base = instance.toString();
		if (base.endsWith("/")) {
			base = base.substring(0, base.length() - 1);
		}
		String path = (healthUrl.getRawPath() != null) ? healthUrl.getRawPath() : "";
		return URI.create(base + path);
	}

	private static String authority(URI instance) {
		return String.valueOf(instance.getRawAuthority());
	}

	private ProbeResult result(boolean healthy, String outcome, String detail, long startNanos) {
		return new ProbeResult(healthy, outcome, detail, Instant.now(this.clock),
				Duration.ofNanos(System.nanoTime() - startNanos));
	}

}
