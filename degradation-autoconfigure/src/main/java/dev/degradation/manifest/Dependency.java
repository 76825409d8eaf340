package dev.degradation.manifest;

import java.net.URI;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A dependency the service calls, how to tell whether it is healthy, and how the application's
 * calls to it are guarded.
 *
 * @param name the name routes use in {@code requires}
 * @param healthUrl the absolute http(s) URL probed with GET ({@code health_url}), or {@code null}
 * when the dependency is judged by a health indicator or by its calls alone
 * @param healthCheck how it is probed and judged: the manifest's defaults with this dependency's
 * overrides applied
 * @param position where the dependency is declared
 * @param healthIndicator the name of the Spring Boot {@code HealthIndicator} that judges it
 * ({@code health_indicator}, such as {@code db}), or {@code null}
 * @param baseUrl where the application calls it ({@code base_url}), or {@code null} when its calls
 * are not recognised by URL
 * @param calls how the application's calls to it are guarded
 * @param sourceKeys the keys of the application's health sources that the dependency writes
 * ({@link HealthSourceKey}), by key, with their values: what such a source judges it by
 */
public record Dependency(String name, @Nullable URI healthUrl, HealthCheck healthCheck, Position position,
		@Nullable String healthIndicator, @Nullable URI baseUrl, CallBudget calls, Map<String, String> sourceKeys) {

	public Dependency {
		sourceKeys = Map.copyOf(sourceKeys);
	}

	/**
	 * Create a dependency that writes no key of a health source of the application.
	 * @param name the name
	 * @param healthUrl the health URL, or {@code null}
	 * @param healthCheck how it is probed and judged
	 * @param position where it is declared
	 * @param healthIndicator the name of the health indicator that judges it, or {@code null}
	 * @param baseUrl where the application calls it, or {@code null}
	 * @param calls how the application's calls to it are guarded
	 */
	public Dependency(String name, @Nullable URI healthUrl, HealthCheck healthCheck, Position position,
			@Nullable String healthIndicator, @Nullable URI baseUrl, CallBudget calls) {
		this(name, healthUrl, healthCheck, position, healthIndicator, baseUrl, calls, Map.of());
	}

	/**
	 * Create a dependency probed at a health URL, with the standard call budget.
	 * @param name the name
	 * @param healthUrl the health URL
	 * @param healthCheck how it is probed and judged
	 * @param position where it is declared
	 */
	public Dependency(String name, URI healthUrl, HealthCheck healthCheck, Position position) {
		this(name, healthUrl, healthCheck, position, null, null, CallBudget.standard(healthCheck.timeout()));
	}

	/**
	 * Return whether something probes this dependency (a health URL, a health indicator, or the
	 * key of a health source of the application); one without is judged by the application's
	 * calls alone.
	 * @return whether it is probed
	 */
	public boolean probed() {
		return this.healthUrl != null || this.healthIndicator != null || !this.sourceKeys.isEmpty();
	}

	/**
	 * Return the value of a key of a health source of the application.
	 * @param key the key, as the source declares it
	 * @return the value, or {@code null} when the dependency does not write it
	 */
	public @Nullable String sourceKey(String key) {
		return this.sourceKeys.get(key);
	}

}
