package dev.degradation.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the overrides an operator sets through the Actuator (switches, simulation).
 *
 * <p>Read by {@link DegradationEndpointAutoConfiguration}, whose write operations set them.
 */
@ConfigurationProperties("degradation.overrides")
public class DegradationOverrideProperties {

	/**
	 * Longest time to live an override may ask for; a longer one is refused. An override
	 * without a time to live holds until removed.
	 */
	private Duration maxTtl = Duration.ofDays(1);

	public Duration getMaxTtl() {
		return this.maxTtl;
	}

	public void setMaxTtl(Duration maxTtl) {
		this.maxTtl = maxTtl;
	}

}
