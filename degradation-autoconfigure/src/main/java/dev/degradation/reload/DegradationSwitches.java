package dev.degradation.reload;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.SwitchSignal;
import dev.degradation.engine.SwitchState;

/**
 * Applies the configured switches ({@code degradation.switches.*}) to the {@link SwitchSignal}:
 * at startup, where an unknown name fails startup, and again whenever the Environment changes
 * (a Spring Cloud refresh from Config Server or Kubernetes config), where a configuration with an
 * unknown name is refused whole and the switches stay as they were. The starter coordinates
 * nothing across instances itself: the config system does.
 */
public class DegradationSwitches {

	private static final Log logger = LogFactory.getLog(DegradationSwitches.class);

	/**
	 * The prefix of the switches' properties.
	 */
	public static final String PREFIX = "degradation.switches";

	private final SwitchSignal signal;

	private final DegradationEngine engine;

	private final Environment environment;

	/**
	 * Create the switches' configuration and apply what the Environment says now.
	 * @param signal the signal the switches feed
	 * @param engine the engine to re-evaluate after a change
	 * @param environment where the switches are configured
	 * @throws IllegalStateException if a configured switch names neither a tier nor a named route
	 */
	public DegradationSwitches(SwitchSignal signal, DegradationEngine engine, Environment environment) {
		this.signal = signal;
		this.engine = engine;
		this.environment = environment;
		try {
			signal.configure(bind());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("Invalid '" + PREFIX + "': " + ex.getMessage(), ex);
		}
		engine.evaluate();
		if (!signal.configured().isEmpty()) {
			logger.info("Switches configured: " + describe(signal.configured()));
		}
	}

	/**
	 * Apply the switches the Environment says now; called when it changes.
	 * @return whether they were applied (false when refused, or when nothing changed)
	 */
	public synchronized boolean reapply() {
		Map<String, SwitchState> switches = bind();
		Map<String, SwitchState> before = this.signal.configured();
		if (Objects.equals(before, switches)) {
			return false;
		}
		try {
			this.signal.configure(switches);
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Refused the changed '" + PREFIX + "' (" + describe(switches) + "): " + ex.getMessage()
					+ "; the switches stay " + describe(before));
			return false;
		}
		this.engine.evaluate();
		logger.info("Switches changed by the configuration: " + describe(before) + " -> " + describe(switches));
		return true;
	}

	private Map<String, SwitchState> bind() {
		return Binder.get(this.environment)
			.bind(PREFIX, Bindable.mapOf(String.class, SwitchState.class))
			.map((bound) -> (Map<String, SwitchState>) new LinkedHashMap<>(bound))
			.orElseGet(LinkedHashMap::new);
	}

	private static String describe(Map<String, SwitchState> switches) {
		if (switches.isEmpty()) {
			return "none";
		}
		StringBuilder text = new StringBuilder();
		switches.forEach((name, state) -> text.append((text.length() > 0) ? ", " : "").append(name).append('=')
			.append(state.name().toLowerCase(Locale.ROOT)));
		return text.toString();
	}

}
