package dev.degradation.manifest;

import java.net.URI;

/**
 * A dependency the service calls, and how to tell whether it is healthy.
 *
 * @param name the name routes use in {@code requires}
 * @param healthUrl the absolute http(s) URL probed with GET ({@code health_url})
 * @param healthCheck how it is probed and judged: the manifest's defaults with this dependency's
 * overrides applied
 * @param position where the dependency is declared
 */
public record Dependency(String name, URI healthUrl, HealthCheck healthCheck, Position position) {

}
