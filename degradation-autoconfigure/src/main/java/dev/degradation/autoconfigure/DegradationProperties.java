package dev.degradation.autoconfigure;

import java.time.Duration;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.Assert;
import org.springframework.util.unit.DataSize;

import dev.degradation.web.RequestDecider;

import dev.degradation.engine.SwitchState;
import dev.degradation.manifest.VerificationMode;
import dev.degradation.web.servlet.DegradationFilter;
import dev.degradation.web.StaleAnswers;

/**
 * Configuration properties of the degradation starter.
 */
@ConfigurationProperties("degradation")
public class DegradationProperties {

	/**
	 * Default manifest location: optional, so that an application without a manifest starts with
	 * the starter inactive.
	 */
	// A literal, the same as ManifestLocation.DEFAULT: the configuration processor records only a
	// default it can read in this class.
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
	 * What to do at startup with a manifest route that no Spring MVC handler (annotated or
	 * functional) serves, and with a 'health_indicator' that names no health indicator of the
	 * application: 'warn' logs it with its position, 'strict' refuses to start, 'off' skips the
	 * checks.
	 */
	private VerificationMode verify = VerificationMode.WARN;

	/**
	 * Operator switches by tier or route name: 'off' sheds the tier or route whatever the level,
	 * 'on' (or no entry) leaves it to the other signals. Re-applied when the Environment changes
	 * (Spring Cloud refresh); an unknown name is refused with the known ones.
	 */
	private Map<String, SwitchState> switches = new LinkedHashMap<>();

	private final Overrides overrides = new Overrides();

	private final Deadline deadline = new Deadline();

	private final Body body = new Body();

	private final Overload overload = new Overload();

	private final Priority priority = new Priority();

	private final Filter filter = new Filter();

	private final Probes probes = new Probes();

	private final Stale stale = new Stale();

	private final Parts parts = new Parts();

	private final Ui ui = new Ui();

	private final Pressure pressure = new Pressure();

	private final Simulation simulation = new Simulation();


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

	public VerificationMode getVerify() {
		return this.verify;
	}

	public void setVerify(VerificationMode verify) {
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

	public Deadline getDeadline() {
		return this.deadline;
	}

	public Body getBody() {
		return this.body;
	}

	public Overload getOverload() {
		return this.overload;
	}

	public Priority getPriority() {
		return this.priority;
	}

	public Filter getFilter() {
		return this.filter;
	}

	public Probes getProbes() {
		return this.probes;
	}

	public Stale getStale() {
		return this.stale;
	}

	public Parts getParts() {
		return this.parts;
	}

	public Pressure getPressure() {
		return this.pressure;
	}

	public Simulation getSimulation() {
		return this.simulation;
	}

	public Ui getUi() {
		return this.ui;
	}

	/**
	 * Settings of the live status page served by the 'degradation' Actuator endpoint at
	 * '<base path>/degradation/ui'.
	 */
	public static class Ui {

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

	/**
	 * Settings of the executor on which the optional parts of partial answers are gathered.
	 */
	public static class Parts {

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

	/**
	 * Bounds of the copies that 'stale' routes keep of their last good answers.
	 */
	public static class Stale {

		/**
		 * Copies one 'stale' route may hold (one per path, query and vary_by headers); the least
		 * recently used is dropped first.
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

	/**
	 * Settings of admission under load.
	 */
	public static class Overload {

		/**
		 * Whether to admit requests under load as the manifest's 'overload' section says; false
		 * turns admission off whatever the manifest says.
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
	 * Settings of simulation.
	 */
	public static class Simulation {

		private final Requests requests = new Requests();

		public Requests getRequests() {
			return this.requests;
		}

		/**
		 * Settings of the simulation a request asks for itself, with the headers
		 * 'X-Degradation-Simulate' ('level=2' or 'failed=a,b') and 'X-Degradation-Simulate-Token':
		 * that request alone answers as the simulation says, and its guarded calls pass both headers
		 * on, so that a whole call graph degrades for it while everyone else is served live.
		 */
		public static class Requests {

			/** The shortest token accepted: long enough that it cannot be guessed one request at a time. */
			public static final int MIN_TOKEN_LENGTH = 16;

			/**
			 * Whether a request may ask for its own simulation. Off by default; when on, 'token' is
			 * required.
			 */
			private boolean enabled;

			/**
			 * Shared secret a request must send in 'X-Degradation-Simulate-Token' for its
			 * simulation header to count, at least 16 characters; the same in every service of a
			 * call graph. Read from the Environment, so it may come from a vault or a Kubernetes
			 * secret; never shown by the Actuator.
			 */
			private @Nullable String token;

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public @Nullable String getToken() {
				return this.token;
			}

			public void setToken(@Nullable String token) {
				this.token = token;
			}

			/**
			 * Return the token when requests may simulate.
			 * @return the token, or {@code null} when they may not
			 * @throws IllegalStateException if it is enabled without a token that is long enough
			 */
			public @Nullable String tokenWhenEnabled() {
				if (!this.enabled) {
					return null;
				}
				String token = this.token;
				if (token == null || token.isBlank()) {
					throw new IllegalStateException("'degradation.simulation.requests.token' must be set when "
							+ "'degradation.simulation.requests.enabled' is true: a request's simulation counts only "
							+ "with the shared token");
				}
				if (token.length() < MIN_TOKEN_LENGTH) {
					throw new IllegalStateException("'degradation.simulation.requests.token' must be at least "
							+ MIN_TOKEN_LENGTH + " characters, but has " + token.length());
				}
				return token;
			}

		}

	}

	/**
	 * Settings of the priority a request passes on to the services it calls: its route's tier
	 * priority, or 'core'. Priority numbers must mean the same in every service of a chain.
	 */
	public static class Priority {

		/**
		 * Whether to pass each request's priority on to the calls it makes to the manifest's
		 * dependencies, and to rank each request in admission by the priority its caller passed.
		 * Off by default because it changes who is admitted under overload in a service that
		 * honours it, which is right only where the services of a chain share their priority
		 * numbers. A passed priority can only lower a request's own, never raise it, so the
		 * header needs no trust.
		 */
		private boolean enabled;

		/**
		 * Header that carries a request's priority: a tier priority as the manifest writes it,
		 * or 'core'.
		 */
		private String header = "X-Degradation-Priority";

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getHeader() {
			return this.header;
		}

		public void setHeader(String header) {
			Assert.hasText(header, "'header' must not be empty");
			this.header = header;
		}

		/**
		 * Return the header when passing priorities is enabled.
		 * @return the header, or {@code null} when it is not
		 */
		public @Nullable String headerWhenEnabled() {
			return this.enabled ? this.header : null;
		}

	}

	/**
	 * Settings of the deadline a caller sends with a request, which bounds how long admission lets
	 * the request wait.
	 */
	public static class Deadline {

		/**
		 * Request header that carries a request's deadline, in milliseconds left (Envoy's by
		 * default): it bounds how long admission lets the request wait, and every guarded call
		 * made for it, on which it is set to the time that call may take.
		 */
		private String header = "x-envoy-expected-rq-timeout-ms";

		/**
		 * Longest deadline trusted, whatever the header says.
		 */
		private Duration max = Duration.ofSeconds(30);

		public String getHeader() {
			return this.header;
		}

		public void setHeader(String header) {
			this.header = header;
		}

		public Duration getMax() {
			return this.max;
		}

		public void setMax(Duration max) {
			Assert.isTrue(max.compareTo(Duration.ZERO) > 0, "'max' must be greater than 0");
			this.max = max;
		}

	}

	/**
	 * Settings of how long a request's body may take to arrive under admission, so that a
	 * caller's slowness never holds one of admission's places.
	 */
	public static class Body {

		/**
		 * Longest a request's body may take to arrive: a body up to 'read-ahead' is read before
		 * the request is admitted and answered 408 (connection closed) when it is not in within
		 * this time; a larger or chunked one is read after admission and fails with 408 (or the
		 * application's answer to the read error) this long after admission, or at its caller's
		 * deadline when that is shorter.
		 */
		private Duration timeout = RequestDecider.DEFAULT_BODY_TIMEOUT;

		/**
		 * Largest body of a declared length read whole before its request is admitted; 0 reads
		 * none first. Form bodies are never read first (the server parses them itself).
		 */
		private DataSize readAhead = DataSize.ofBytes(RequestDecider.DEFAULT_READ_AHEAD_BYTES);

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			Assert.isTrue(timeout.compareTo(Duration.ZERO) > 0, "'timeout' must be greater than 0");
			this.timeout = timeout;
		}

		public DataSize getReadAhead() {
			return this.readAhead;
		}

		public void setReadAhead(DataSize readAhead) {
			Assert.isTrue(readAhead.toBytes() >= 0 && readAhead.toBytes() <= Integer.MAX_VALUE - 8,
					"'read-ahead' must be between 0 and 2GB");
			this.readAhead = readAhead;
		}

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
	 * Settings of the pressure rules of the manifest ('pressure'), which shed tiers on meters the
	 * application has.
	 */
	public static class Pressure {

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

	/**
	 * Settings of the servlet filter that serves fallbacks.
	 */
	public static class Filter {

		/**
		 * Order of the degradation filter and of the filter that checks the endpoint's writes
		 * (servlet filters, or web filters on WebFlux). Keep it greater than Spring Security's
		 * filter order (-100) so that authentication runs before any fallback is served.
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
