package dev.degradation.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.degradation.engine.SwitchState;
import dev.degradation.manifest.VerificationMode;
import dev.degradation.web.RefusedCallers;

/**
 * Configuration properties of the core of the degradation starter: whether it is on, where its
 * manifest is, how the manifest is checked against the application, the operator switches, and
 * which signals run. Each other concern has its properties beside the configuration that reads
 * them ({@link DegradationFilterProperties}, {@link DegradationRequestProperties},
 * {@link DegradationStaleProperties}, {@link DegradationOverrideProperties},
 * {@link DegradationStatusPageProperties}, {@link DegradationPressureProperties},
 * {@link DegradationPartsProperties}, {@link DegradationClientProperties}), all under
 * {@code degradation}.
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

	private final Overload overload = new Overload();

	private final Probes probes = new Probes();

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

	public Overload getOverload() {
		return this.overload;
	}

	public Probes getProbes() {
		return this.probes;
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

		/**
		 * Which refusals wait their turn with the other cheap answers while admitted work is
		 * served: 'retrying' (those to a caller that came back before its Retry-After), 'always'
		 * or 'never' (every refusal written at once).
		 */
		private RefusedCallers.Mode refusalTurns = RefusedCallers.Mode.RETRYING;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public RefusedCallers.Mode getRefusalTurns() {
			return this.refusalTurns;
		}

		public void setRefusalTurns(RefusedCallers.Mode refusalTurns) {
			this.refusalTurns = refusalTurns;
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

}
