package dev.degradation.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.Assert;
import org.springframework.util.unit.DataSize;

import dev.degradation.web.RequestDecider;

/**
 * Settings of what a request brings and passes on: its deadline, its priority, its body, and the
 * simulation it may ask for. Read by the request decision ({@link DegradationAutoConfiguration}),
 * by the guards of the calls made for it ({@link DegradationClientAutoConfiguration},
 * {@link DegradationWebClientAutoConfiguration}, {@link DegradationGatewayAutoConfiguration}) and
 * by the endpoint, so one class serves them all; under {@code degradation} as before.
 */
@ConfigurationProperties("degradation")
public class DegradationRequestProperties {

	private final Deadline deadline = new Deadline();

	private final Body body = new Body();

	private final Priority priority = new Priority();

	private final Simulation simulation = new Simulation();

	public Deadline getDeadline() {
		return this.deadline;
	}

	public Body getBody() {
		return this.body;
	}

	public Priority getPriority() {
		return this.priority;
	}

	public Simulation getSimulation() {
		return this.simulation;
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
		 * this time; a larger one, or one of no declared length (chunked, or an HTTP/2 body's
		 * DATA frames), is read after admission and fails with 408 (or the
		 * application's answer to the read error) this long after admission, or at its caller's
		 * deadline when that is shorter. A multipart body that Spring MVC's server parses itself
		 * gives its place back then, and is answered 408 once the server has read it.
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

}
