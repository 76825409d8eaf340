package dev.degradation.sample.extras;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the shop's dependencies are and how long a call to them may take. Each dependency's URL
 * is set by the embedded dependencies unless configured
 * ({@code sample.dependencies.recommendations-api.url=http://...}).
 *
 * @param analyticsCollector the {@code analytics-collector} dependency
 * @param recommendationsApi the {@code recommendations-api} dependency
 * @param personalizationService the {@code personalization-service} dependency
 * @param timeout time a call may take, connection included; short, because a feature that waits
 * for a failing dependency holds a request thread the core routes need
 */
@ConfigurationProperties("sample.dependencies")
public record RemoteDependenciesProperties(Remote analyticsCollector, Remote recommendationsApi,
		Remote personalizationService, @DefaultValue("2s") Duration timeout) {

	/**
	 * One dependency.
	 *
	 * @param url base URL of the dependency; its endpoints are below it, such as
	 * {@code <url>/recommendations}
	 */
	public record Remote(URI url) {

	}

}
