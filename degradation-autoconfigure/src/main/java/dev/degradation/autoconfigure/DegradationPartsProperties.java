package dev.degradation.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the executor on which the optional parts of partial answers are gathered.
 *
 * <p>Read by {@link DegradationPartsAutoConfiguration}.
 */
@ConfigurationProperties("degradation.parts")
public class DegradationPartsProperties {

	/**
	 * Threads that run the parts' calls; a hanging call holds one until its budget ends.
	 */
	private int threads = 16;

	/**
	 * Calls that may wait for a thread; a call beyond that is refused and its part is missing
	 * at once.
	 */
	private int queueCapacity = 64;

	public int getThreads() {
		return this.threads;
	}

	public void setThreads(int threads) {
		this.threads = threads;
	}

	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	public void setQueueCapacity(int queueCapacity) {
		this.queueCapacity = queueCapacity;
	}

}
