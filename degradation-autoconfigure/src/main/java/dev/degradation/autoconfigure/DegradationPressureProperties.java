package dev.degradation.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the pressure rules of the manifest ('pressure'), which shed tiers on meters the
 * application has.
 *
 * <p>Read by {@link DegradationMetricsAutoConfiguration}, which samples the meters.
 */
@ConfigurationProperties("degradation.pressure")
public class DegradationPressureProperties {

	/**
	 * How often the rules' meters are read. A rule starts shedding within this time of its
	 * meter passing its threshold.
	 */
	private Duration interval = Duration.ofSeconds(1);

	public Duration getInterval() {
		return this.interval;
	}

	public void setInterval(Duration interval) {
		if (interval.compareTo(Duration.ofMillis(10)) < 0 || interval.compareTo(Duration.ofMinutes(10)) > 0) {
			throw new IllegalArgumentException(
					"'degradation.pressure.interval' must be between 10ms and 10m, but it is " + interval);
		}
		this.interval = interval;
	}

}
