package dev.degradation.actuate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.PressureSignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.ManifestProblem;
import dev.degradation.manifest.PressureRule;
import dev.degradation.manifest.Suggestions;
import dev.degradation.manifest.VerificationMode;

/**
 * Reads the meters of the manifest's pressure rules from the application's {@link MeterRegistry},
 * as Spring Boot configures it, and gives their values to the {@link PressureSignal}, off the
 * engine's lock (the auto-configuration calls {@link #sample()} on a thread of its own). No meter is
 * made here and no MXBean read by hand: a rule reads what the application already measures
 * (Micrometer's JVM metrics, HikariCP's, an executor's).
 *
 * <p>A rule whose meter the registry does not have is a problem of the manifest: {@link #check}
 * reports it with the rule's position and the registered meter of the closest name, once the
 * context is ready (when Boot has bound the JVM's meters and started the pools). The caller
 * decides whether it refuses the manifest or only warns, for meters registered later.
 */
public class PressureSampler {

	private static final Log logger = LogFactory.getLog(PressureSampler.class);

	private final PressureSignal signal;

	private final DegradationEngine engine;

	private final MeterRegistry registry;

	private final VerificationMode verify;

	/**
	 * Create a sampler.
	 * @param signal the signal the values are given to
	 * @param engine the engine, whose clock times the values and which evaluates when a rule
	 * starts or stops pressing
	 * @param registry the application's meter registry
	 * @param verify what a rule whose meter the registry does not have does at startup
	 */
	public PressureSampler(PressureSignal signal, DegradationEngine engine, MeterRegistry registry,
			VerificationMode verify) {
		this.signal = signal;
		this.engine = engine;
		this.registry = registry;
		this.verify = verify;
	}

	/**
	 * Whether the manifest in force has any pressure rule, that is anything to sample.
	 * @return whether there is a rule
	 */
	public boolean hasRules() {
		return !this.signal.rules().isEmpty();
	}

	/**
	 * Read every rule's meter once and give the values to the signal; the engine evaluates at once
	 * when a rule starts or stops pressing.
	 */
	public void sample() {
		List<PressureRule> rules = this.signal.rules();
		if (rules.isEmpty()) {
			return;
		}
		double[] values = new double[rules.size()];
		for (int i = 0; i < values.length; i++) {
			values[i] = read(rules.get(i));
		}
		if (this.signal.record(rules, values, this.engine.clock().instant())) {
			this.engine.evaluate();
		}
	}

	/**
	 * Return a rule's value: the highest of the meters of its name and tags, or {@code NaN} when the
	 * registry has none.
	 * @param rule the rule
	 * @return the value
	 */
	public double read(PressureRule rule) {
		double highest = Double.NaN;
		for (Meter meter : search(rule).meters()) {
			double value = value(meter);
			if (!Double.isNaN(value) && (Double.isNaN(highest) || value > highest)) {
				highest = value;
			}
		}
		return highest;
	}

	/**
	 * A gauge's value, or the first measurement of any other meter (a counter's count, a timer's
	 * count): what a threshold on it means is the rule's to say.
	 */
	private static double value(Meter meter) {
		if (meter instanceof Gauge gauge) {
			return gauge.value();
		}
		for (Measurement measurement : meter.measure()) {
			return measurement.getValue();
		}
		return Double.NaN;
	}

	private Search search(PressureRule rule) {
		Search search = this.registry.find(rule.meter());
		for (Map.Entry<String, String> tag : rule.tags().entrySet()) {
			search = search.tag(tag.getKey(), tag.getValue());
		}
		return search;
	}

	/**
	 * Return the problems of a manifest's pressure rules that only the running application shows:
	 * a meter its registry does not have (with the closest registered name), or none with the
	 * rule's tags (with the tags it has).
	 * @param manifest the manifest
	 * @return the problems, empty when every rule reads a meter
	 */
	public List<ManifestProblem> check(DegradationManifest manifest) {
		List<ManifestProblem> problems = new ArrayList<>();
		List<PressureRule> rules = manifest.pressure();
		for (int i = 0; i < rules.size(); i++) {
			PressureRule rule = rules.get(i);
			if (!search(rule).meters().isEmpty()) {
				continue;
			}
			Collection<Meter> named = this.registry.find(rule.meter()).meters();
			String message;
			if (named.isEmpty()) {
				TreeSet<String> names = new TreeSet<>();
				this.registry.getMeters().forEach((meter) -> names.add(meter.getId().getName()));
				message = "the application has no meter " + quote(rule.meter()) + Suggestions.hint(rule.meter(), names)
						+ " (a meter registered after startup is read once it exists; "
						+ "'degradation.verify=warn' lets the manifest start)";
			}
			else {
				TreeSet<String> tags = new TreeSet<>();
				named.forEach((meter) -> tags.add(String.valueOf(meter.getId().getTags())));
				message = "no meter " + quote(rule.meter()) + " has the tags " + rule.tags() + "; its tags: "
						+ String.join(", ", tags);
			}
			problems.add(new ManifestProblem(manifest.source(), rule.position(), "pressure[" + i + "].meter", message));
		}
		return problems;
	}

	/**
	 * Check the active manifest's rules when the application starts: under {@code strict} a rule
	 * whose meter the application does not have refuses it ({@link InvalidManifestException}),
	 * under {@code warn} it is logged.
	 */
	public void checkAtStartup() {
		if (this.verify == VerificationMode.OFF) {
			return;
		}
		DegradationManifest manifest = this.engine.manifest();
		List<ManifestProblem> problems = check(manifest);
		if (problems.isEmpty()) {
			return;
		}
		InvalidManifestException exception = new InvalidManifestException(manifest.source(), problems);
		if (this.verify == VerificationMode.STRICT) {
			throw exception;
		}
		logger.warn(exception.getMessage() + "\n(the rule presses nothing until its meter exists; set "
				+ "'degradation.verify=strict' to refuse to start instead)");
	}

	/**
	 * Check a manifest that is to replace the active one (a reload) as startup checked the first,
	 * under the same mode: under {@code strict} a rule whose meter the application does not have
	 * refuses it; under {@code warn} it is logged and the reload goes on.
	 * @param replacement the manifest that is to become active
	 * @return the problems that refuse it, empty when it may become active
	 */
	public List<ManifestProblem> checkReplacement(DegradationManifest replacement) {
		if (this.verify == VerificationMode.OFF) {
			return List.of();
		}
		List<ManifestProblem> problems = check(replacement);
		if (problems.isEmpty() || this.verify == VerificationMode.STRICT) {
			return problems;
		}
		logger.warn(new InvalidManifestException(replacement.source(), problems).getMessage()
				+ "\n(reloaded all the same; the rule presses nothing until its meter exists)");
		return List.of();
	}

	private static String quote(String text) {
		return "'" + text + "'";
	}

}
