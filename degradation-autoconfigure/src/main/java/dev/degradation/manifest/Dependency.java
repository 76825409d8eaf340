package dev.degradation.manifest;

import java.net.URI;

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
 */
public record Dependency(String name, @Nullable URI healthUrl, HealthCheck healthCheck, Position position,
		@Nullable String healthIndicator, @Nullable URI baseUrl, CallBudget calls) {

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
	 * Return whether something probes this dependency (a health URL or a health indicator); one
	 * without is judged by the application's calls alone.
	 * @return whether it is probed
	 */
	public boolean probed() {
		return this.healthUrl != null || this.healthIndicator != null;
	}

}
