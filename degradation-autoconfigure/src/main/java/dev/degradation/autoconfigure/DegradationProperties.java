package dev.degradation.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.Assert;

import dev.degradation.engine.SwitchState;
import dev.degradation.web.DegradationFilter;

/**
 * Configuration properties of the degradation starter.
 */
@ConfigurationProperties("degradation")
public class DegradationProperties {

	/**
	 * Default manifest location: optional, so that an application without a manifest starts with
	 * the starter inactive.
	 */
	public static final String DEFAULT_MANIFEST = "optional:classpath:degradation-manifest.yaml";

	/**
	 * Whether the degradation starter is enabled.
	 */
	private boolean enabled = true;

	/**
	 * Location of the degradation manifest, as a Spring resource location. Prefix it with
	 * 'optional:' to let the application start without it, the starter then being inactive;
	 * without the prefix a missing manifest fails startup.
	 */
	private String manifest = DEFAULT_MANIFEST;

	/**
	 * What to do at startup with a manifest route that no Spring MVC handler serves: 'warn' logs
	 * it with its position, 'strict' refuses to start, 'off' skips the check.
	 */
	private Verify verify = Verify.WARN;

	/**
	 * Operator switches by tier or route name: 'off' sheds the tier or route whatever the level,
	 * 'on' (or no entry) leaves it to the other signals. Re-applied when the Environment changes
	 * (Spring Cloud refresh); an unknown name is refused with the known ones.
	 */
	private Map<String, SwitchState> switches = new LinkedHashMap<>();

	private final Overrides overrides = new Overrides();

	private final Filter filter = new Filter();

	private final Probes probes = new Probes();

	private final Client client = new Client();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getManifest() {
		return this.manifest;
	}

	public void setManifest(String manifest) {
		this.manifest = manifest;
	}

	public Verify getVerify() {
		return this.verify;
	}

	public void setVerify(Verify verify) {
		this.verify = verify;
	}

	public Map<String, SwitchState> getSwitches() {
		return this.switches;
	}

	public void setSwitches(Map<String, SwitchState> switches) {
		this.switches = switches;
	}

	public Overrides getOverrides() {
		return this.overrides;
	}

	public Filter getFilter() {
		return this.filter;
	}

	public Probes getProbes() {
		return this.probes;
	}

	public Client getClient() {
		return this.client;
	}

	/**
	 * Settings of the overrides an operator sets through the Actuator (switches, simulation).
	 */
	public static class Overrides {

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

	/**
	 * Settings of the servlet filter that serves fallbacks.
	 */
	public static class Filter {

		/**
		 * Order of the degradation filter. Keep it greater than Spring Security's filter order
		 * (-100) so that authentication runs before any fallback is served.
		 */
		private int order = DegradationFilter.DEFAULT_ORDER;

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

	}

	/**
	 * Settings of the dependency health probes.
	 */
	public static class Probes {

		/**
		 * Whether to probe the manifest's dependencies. Without probes every dependency stays
		 * unknown unless forced through the Actuator, and only simulation changes the shed level.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Settings of the guards of the application's own calls to its dependencies.
	 */
	public static class Client {

		/**
		 * Request header that carries a request's deadline, as milliseconds left: read from
		 * requests received, and set on every guarded call to the time that call may take.
		 */
		private String deadlineHeader = "x-envoy-expected-rq-timeout-ms";

		/**
		 * Longest deadline accepted from a request's deadline header; a caller asking for
		 * more gets this.
		 */
		private Duration maxDeadline = Duration.ofSeconds(30);

		public String getDeadlineHeader() {
			return this.deadlineHeader;
		}

		public void setDeadlineHeader(String deadlineHeader) {
			this.deadlineHeader = deadlineHeader;
		}

		public Duration getMaxDeadline() {
			return this.maxDeadline;
		}

		public void setMaxDeadline(Duration maxDeadline) {
			Assert.isTrue(maxDeadline.compareTo(Duration.ZERO) > 0, "'max-deadline' must be greater than 0");
			this.maxDeadline = maxDeadline;
		}

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

	/**
	 * What to do with a manifest route that no handler of the application serves.
	 */
	public enum Verify {

		/**
		 * Skip the check.
		 */
		OFF,

		/**
		 * Log each such route at WARN with its position in the manifest.
		 */
		WARN,

		/**
		 * Refuse to start, reporting each such route with its position in the manifest.
		 */
		STRICT

	}

}
