package dev.degradation.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.Assert;

import dev.degradation.client.DependencyGuards;

/**
 * Settings of the guards of the application's own calls to its dependencies.
 */
@ConfigurationProperties("degradation.client")
public class DegradationClientProperties {

	/**
	 * Most guarded calls that may hold a thread of the guards' executor at once: calls whose HTTP
	 * client enforces no per-request timeout, and calls made through DependencyGuards.call. A call
	 * beyond it is refused at once (DependencyUnavailableException, so its route's fallback).
	 * Virtual threads when 'spring.threads.virtual.enabled' is true.
	 */
	private int maxThreadedCalls = DependencyGuards.DEFAULT_MAX_THREADED_CALLS;

	private final Customizers customizers = new Customizers();

	public Customizers getCustomizers() {
		return this.customizers;
	}

	public int getMaxThreadedCalls() {
		return this.maxThreadedCalls;
	}

	public void setMaxThreadedCalls(int maxThreadedCalls) {
		Assert.isTrue(maxThreadedCalls >= 1, "'max-threaded-calls' must be greater than or equal to 1");
		this.maxThreadedCalls = maxThreadedCalls;
	}

	/**
	 * The customizers and post-processors with which the starter guards the clients Spring Boot
	 * and the application build.
	 */
	public static class Customizers {

		/**
		 * Whether the RestClient, WebClient and HTTP client builders that Spring Boot configures,
		 * and the RestClient.Builder, RestClient, RestTemplate, WebClient.Builder and WebClient
		 * beans the application defines itself, get the guards (Apache HttpClient, the JDK's
		 * HttpClient and Reactor Netty their per-attempt timeouts, Apache HttpClient the guards'
		 * retry strategy, Spring's JDK and HttpURLConnection factories that the application built
		 * their per-request timeouts). Off, the guards are the application's to apply
		 * (DependencyGuards.call).
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
