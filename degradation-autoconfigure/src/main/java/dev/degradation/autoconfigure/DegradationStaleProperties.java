package dev.degradation.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import dev.degradation.web.StaleAnswers;

/**
 * Bounds of the copies that 'stale' routes keep of their last good answers.
 *
 * <p>Read by {@link DegradationAutoConfiguration}, which keeps the copies for both web stacks.
 */
@ConfigurationProperties("degradation.stale")
public class DegradationStaleProperties {

	/**
	 * Copies one 'stale' route may hold (one per path, query, vary_by headers and authenticated
	 * user); the least recently used is dropped first.
	 */
	private int maxEntriesPerRoute = StaleAnswers.Limits.DEFAULT.maxEntriesPerRoute();

	/**
	 * Memory the copies of one 'stale' route may hold.
	 */
	private DataSize maxSizePerRoute = DataSize.ofBytes(StaleAnswers.Limits.DEFAULT.maxBytesPerRoute());

	/**
	 * Memory the copies of every 'stale' route together may hold.
	 */
	private DataSize maxSize = DataSize.ofBytes(StaleAnswers.Limits.DEFAULT.maxBytes());

	/**
	 * Largest answer body that is kept; a larger answer is served live but not kept.
	 */
	private DataSize maxAnswerSize = DataSize.ofBytes(StaleAnswers.Limits.DEFAULT.maxAnswerBytes());

	public int getMaxEntriesPerRoute() {
		return this.maxEntriesPerRoute;
	}

	public void setMaxEntriesPerRoute(int maxEntriesPerRoute) {
		this.maxEntriesPerRoute = maxEntriesPerRoute;
	}

	public DataSize getMaxSizePerRoute() {
		return this.maxSizePerRoute;
	}

	public void setMaxSizePerRoute(DataSize maxSizePerRoute) {
		this.maxSizePerRoute = maxSizePerRoute;
	}

	public DataSize getMaxSize() {
		return this.maxSize;
	}

	public void setMaxSize(DataSize maxSize) {
		this.maxSize = maxSize;
	}

	public DataSize getMaxAnswerSize() {
		return this.maxAnswerSize;
	}

	public void setMaxAnswerSize(DataSize maxAnswerSize) {
		this.maxAnswerSize = maxAnswerSize;
	}

	StaleAnswers.Limits toLimits() {
		if (this.maxEntriesPerRoute < 1) {
			throw new IllegalStateException("'degradation.stale.max-entries-per-route' must be at least 1");
		}
		if (this.maxAnswerSize.toBytes() > Integer.MAX_VALUE) {
			throw new IllegalStateException("'degradation.stale.max-answer-size' must be less than 2GB");
		}
		return new StaleAnswers.Limits(this.maxEntriesPerRoute, this.maxSizePerRoute.toBytes(),
				this.maxSize.toBytes(), (int) this.maxAnswerSize.toBytes());
	}

}
