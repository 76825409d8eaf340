package dev.degradation.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.Assert;

/**
 * Settings of the live status page served by the 'degradation' Actuator endpoint at
 * '<base path>/degradation/ui'.
 *
 * <p>Read by {@link DegradationEndpointAutoConfiguration}.
 */
@ConfigurationProperties("degradation.ui")
public class DegradationStatusPageProperties {

	/**
	 * Whether the 'degradation' endpoint serves its live status page at 'ui'. It has the
	 * endpoint's exposure and security, and only reads.
	 */
	private boolean enabled = true;

	/**
	 * How often the status page reads the endpoint again.
	 */
	private Duration refreshInterval = Duration.ofSeconds(3);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getRefreshInterval() {
		return this.refreshInterval;
	}

	public void setRefreshInterval(Duration refreshInterval) {
		Assert.isTrue(refreshInterval.toMillis() >= 100,
				"'degradation.ui.refresh-interval' must be at least 100ms, but was " + refreshInterval);
		this.refreshInterval = refreshInterval;
	}

}
