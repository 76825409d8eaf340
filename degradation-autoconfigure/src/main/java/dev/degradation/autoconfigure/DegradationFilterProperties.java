package dev.degradation.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.degradation.web.RequestDecider;

/**
 * Settings of the starter's filters: the one that carries out the request decision (a servlet
 * filter, or a web filter on WebFlux), and those that serve the Actuator endpoint (the check of
 * its writes, the status page's redirect). Read by the servlet, reactive, endpoint and status page
 * configurations.
 *
 * <p>One order for all of them, on purpose: each must run after Spring Security, and they never
 * meet on one request (the decision leaves the Actuator's base path alone, the endpoint's filters
 * see nothing else), so an order of their own would only add a way to put one before Security.
 */
@ConfigurationProperties("degradation.filter")
public class DegradationFilterProperties {

	/**
	 * Order of the degradation filter and of the filter that checks the endpoint's writes
	 * (servlet filters, or web filters on WebFlux). Keep it greater than Spring Security's
	 * filter order (-100) so that authentication runs before any fallback is served.
	 */
	private int order = RequestDecider.DEFAULT_ORDER;

	/**
	 * Which answers carry the X-Degradation-Level header: 'always', or 'degraded' for only
	 * the answers served by a fallback (a public service may not want to show its state).
	 */
	private LevelHeader levelHeader = LevelHeader.ALWAYS;

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	public LevelHeader getLevelHeader() {
		return this.levelHeader;
	}

	public void setLevelHeader(LevelHeader levelHeader) {
		this.levelHeader = levelHeader;
	}

	/**
	 * Which answers carry the {@code X-Degradation-Level} header.
	 */
	public enum LevelHeader {

		/**
		 * Every answer that passes the filter, degraded or not.
		 */
		ALWAYS,

		/**
		 * Only the answers served by a fallback.
		 */
		DEGRADED

	}

}
