package dev.degradation.actuate;

import java.time.Duration;
import java.util.Locale;
import java.util.NoSuchElementException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.ShedSignal;
import dev.degradation.engine.SwitchSignal;
import dev.degradation.engine.SwitchState;
import dev.degradation.monitor.DependencyState;

import static dev.degradation.actuate.DegradationEndpoint.DEPENDENCIES;
import static dev.degradation.actuate.DegradationEndpoint.MANIFEST;
import static dev.degradation.actuate.DegradationEndpoint.SWITCHES;
import static dev.degradation.actuate.WriteValues.badRequest;

/**
 * The endpoint's write operations on the engine (simulation, reset, forced dependencies, switches,
 * manifest reload), each with its audit line. Apart from the endpoint so that the operations'
 * declarations (what Actuator maps) and what they do are each read in one place; each returns the
 * state after the change, which the endpoint describes.
 */
final class EndpointWrites {

	// The audit lines keep the endpoint's category, which operators filter on.
	private static final Log logger = LogFactory.getLog(DegradationEndpoint.class);

	private final DegradationEngine engine;

	private final WriteValues values;

	private final @Nullable ManifestReload manifestReload;

	EndpointWrites(DegradationEngine engine, Duration maxTtl, @Nullable ManifestReload manifestReload) {
		this.engine = engine;
		this.values = new WriteValues(maxTtl);
		this.manifestReload = manifestReload;
	}

	DegradationState reload(String section, String by) {
		if (!MANIFEST.equals(section) || this.manifestReload == null) {
			throw new NoSuchElementException("Nothing at '" + section + "'"
					+ ((this.manifestReload != null) ? "; use '" + MANIFEST + "' to reload the manifest"
							: "; the manifest is a bean of the application and cannot be reloaded"));
		}
		ManifestReload.Result result = this.manifestReload.reload(by);
		if (!result.reloaded()) {
			throw new ManifestRefusedException(result);
		}
		return this.engine.state();
	}

	DegradationState simulate(boolean enabled, @Nullable Integer level, @Nullable String ttl, String by) {
		if (!enabled) {
			if (ttl != null) {
				throw badRequest("'ttl' is taken only when simulation is turned on");
			}
			DegradationState state = this.engine.stopSimulation();
			logger.info("Simulation off, by " + by);
			return state;
		}
		if (level == null) {
			throw badRequest("'level' is required when 'enabled' is true");
		}
		Duration duration = this.values.ttl(ttl);
		try {
			DegradationState state = this.engine.simulate(level, duration, by);
			logger.info("Simulation at level " + level + " by " + by + until(duration));
			return state;
		}
		catch (IllegalArgumentException ex) {
			throw badRequest(ex.getMessage());
		}
	}

	DegradationState reset(String by) {
		DegradationState state = this.engine.reset();
		logger.info("Degradation reset by " + by);
		return state;
	}

	DegradationState write(String section, String name, @Nullable String state, @Nullable String ttl, String by) {
		if (DEPENDENCIES.equals(section)) {
			if (ttl != null) {
				throw badRequest("'ttl' is not taken when forcing a dependency: it holds until released");
			}
			DependencyState forced = WriteValues.forcedState(state);
			this.engine.forceDependency(name, forced, by);
			logger.info("Dependency '" + name + "' forced " + state.trim().toLowerCase(Locale.ROOT) + " by " + by);
			return this.engine.state();
		}
		SwitchSignal switches = switches(section);
		checkSwitch(switches, name);
		SwitchState switched = WriteValues.switchState(state);
		Duration duration = this.values.ttl(ttl);
		switches.override(name, switched, duration, by, this.engine.clock().instant());
		DegradationState after = this.engine.evaluate();
		logger.info("Switch '" + name + "' " + switched.name().toLowerCase(Locale.ROOT) + " by " + by + until(duration));
		return after;
	}

	DegradationState remove(String section, String name, String by) {
		if (DEPENDENCIES.equals(section)) {
			this.engine.releaseDependency(name);
			logger.info("Dependency '" + name + "' released by " + by);
			return this.engine.state();
		}
		SwitchSignal switches = switches(section);
		checkSwitch(switches, name);
		switches.removeOverride(name);
		DegradationState after = this.engine.evaluate();
		logger.info("Switch '" + name + "' override removed by " + by + "; configured: "
				+ switches.state(name).name().toLowerCase(Locale.ROOT));
		return after;
	}

	private SwitchSignal switches(String section) {
		if (SWITCHES.equals(section)) {
			for (ShedSignal signal : this.engine.signals()) {
				if (signal instanceof SwitchSignal switches) {
					return switches;
				}
			}
		}
		throw new NoSuchElementException(
				"Nothing at '" + section + "'; use '" + DEPENDENCIES + "/{name}' or '" + SWITCHES + "/{name}'");
	}

	private static void checkSwitch(SwitchSignal switches, String name) {
		if (!switches.names().contains(name)) {
			throw new NoSuchElementException("No tier or named route called '" + name + "'; the switches are: "
					+ String.join(", ", switches.names()));
		}
	}

	private String until(@Nullable Duration ttl) {
		return (ttl != null) ? " for " + WriteValues.readable(ttl) + " (until "
				+ this.engine.clock().instant().plus(ttl) + ")" : " until removed";
	}

}
