package dev.degradation.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;

/**
 * The operators' switches: a tier, or a route that has a {@code name} in the manifest, switched
 * off is shed whatever the level, with the cause {@code switch:<name>}. Two sources, the later
 * winning: the configuration ({@code degradation.switches.<name>=off}, fleet-wide through the
 * config system the users already run), and overrides set at run time through the Actuator, each
 * with who set it and an optional time to live, after which it ends by itself and says so once.
 * Switches apply and end at once, without hysteresis. Thread-safe.
 */
public final class SwitchSignal implements ShedSignal {

	/** The kind of this signal, the first part of its causes. */
	public static final String KIND = "switch";

	/** The name of this signal. */
	public static final String NAME = "switches";

	private static final Log logger = LogFactory.getLog(SwitchSignal.class);

	/** The routes of each switch name, by index in the manifest's routes. */
	private Map<String, List<Integer>> targets = new LinkedHashMap<>();

	private Map<String, SwitchState> configured = Map.of();

	private final Map<String, SwitchOverride> overrides = new LinkedHashMap<>();

	/**
	 * Create the switches of a manifest, all on.
	 * @param manifest the manifest whose tiers (and named routes) can be switched
	 */
	public SwitchSignal(DegradationManifest manifest) {
		this.targets = targets(manifest);
	}

	/**
	 * A configured switch or an override that names nothing in the new manifest is reported once
	 * and left out, never fatal: the configuration may be updated after the manifest.
	 */
	@Override
	public synchronized void manifestChanged(DegradationManifest manifest) {
		this.targets = targets(manifest);
		Set<String> unknown = new TreeSet<>(this.configured.keySet());
		unknown.removeAll(this.targets.keySet());
		if (!unknown.isEmpty()) {
			logger.warn("Configured switches that name nothing in the new manifest are ignored: "
					+ String.join(", ", unknown) + "; the switches are: " + String.join(", ", this.targets.keySet()));
			Map<String, SwitchState> configured = new LinkedHashMap<>(this.configured);
			configured.keySet().removeAll(unknown);
			this.configured = Map.copyOf(configured);
		}
		for (Iterator<SwitchOverride> iterator = this.overrides.values().iterator(); iterator.hasNext();) {
			SwitchOverride override = iterator.next();
			if (!this.targets.containsKey(override.name())) {
				iterator.remove();
				logger.warn("Switch override '" + override.name() + "' set by " + override.by()
						+ " ended: the new manifest has no tier or route of that name");
			}
		}
	}

	private static Map<String, List<Integer>> targets(DegradationManifest manifest) {
		Map<String, List<Integer>> targets = new LinkedHashMap<>();
		int index = 0;
		for (Tier tier : manifest.tiers()) {
			List<Integer> routes = new ArrayList<>();
			for (Route route : tier.routes()) {
				routes.add(index++);
			}
			targets.put(tier.name(), List.copyOf(routes));
		}
		List<Route> routes = manifest.routes();
		for (int route = 0; route < routes.size(); route++) {
			String name = routes.get(route).name();
			if (name != null) {
				// The manifest refuses a route name that is a tier's or another route's.
				targets.putIfAbsent(name, List.of(route));
			}
		}
		return targets;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String kind() {
		return KIND;
	}

	/**
	 * Return the names that can be switched: every tier, and every route with a name.
	 * @return the names, in manifest order
	 */
	public synchronized Set<String> names() {
		return Collections.unmodifiableSet(this.targets.keySet());
	}

	/**
	 * Set the switches the configuration says, replacing those it said before. Nothing changes when
	 * a name is unknown: a misspelt switch must never be silently ignored.
	 * @param switches the configured state of each named switch
	 * @throws IllegalArgumentException if a name is neither a tier nor a named route, with the
	 * known names
	 */
	public synchronized void configure(Map<String, SwitchState> switches) {
		Set<String> unknown = new TreeSet<>(switches.keySet());
		unknown.removeAll(this.targets.keySet());
		if (!unknown.isEmpty()) {
			throw new IllegalArgumentException(unknownMessage(unknown));
		}
		this.configured = Map.copyOf(switches);
	}

	/**
	 * Set a switch at run time, over the configuration.
	 * @param name the switch
	 * @param state the state to set
	 * @param ttl how long it holds, or {@code null} for until removed
	 * @param by who sets it
	 * @param now the current time
	 * @return the override
	 * @throws IllegalArgumentException if the name is neither a tier nor a named route
	 */
	public synchronized SwitchOverride override(String name, SwitchState state, @Nullable Duration ttl, String by,
			Instant now) {
		check(name);
		SwitchOverride override = new SwitchOverride(name, state, by, now, (ttl != null) ? now.plus(ttl) : null);
		this.overrides.put(name, override);
		return override;
	}

	/**
	 * Remove the run-time override of a switch; the configuration applies again.
	 * @param name the switch
	 * @return the override removed, or {@code null} if there was none
	 * @throws IllegalArgumentException if the name is neither a tier nor a named route
	 */
	public synchronized @Nullable SwitchOverride removeOverride(String name) {
		check(name);
		return this.overrides.remove(name);
	}

	/**
	 * Return the state a switch has now.
	 * @param name the switch
	 * @return the override's state if any, else the configured one, else {@link SwitchState#ON}
	 */
	public synchronized SwitchState state(String name) {
		SwitchOverride override = this.overrides.get(name);
		return (override != null) ? override.state() : this.configured.getOrDefault(name, SwitchState.ON);
	}

	/**
	 * Return what the configuration says.
	 * @return the configured switches
	 */
	public synchronized Map<String, SwitchState> configured() {
		return this.configured;
	}

	/**
	 * Return the run-time overrides that hold now.
	 * @return the overrides, in the order they were set
	 */
	public synchronized List<SwitchOverride> overrides() {
		return List.copyOf(this.overrides.values());
	}

	@Override
	public List<SignalOverride> runTimeOverrides() {
		List<SignalOverride> overrides = new ArrayList<>();
		for (SwitchOverride override : overrides()) {
			overrides.add(new SignalOverride(NAME + "/" + override.name(),
					override.state().name().toLowerCase(Locale.ROOT), override.by(), override.at(), override.until()));
		}
		return overrides;
	}

	/**
	 * The state of every switch, as {@code switches}: what an operator reads before turning one.
	 */
	@Override
	public Map<String, Object> sections(DegradationState state) {
		Map<String, Object> switches = new LinkedHashMap<>();
		for (String name : names()) {
			switches.put(name, state(name).name());
		}
		return Map.of(NAME, switches);
	}

	@Override
	public synchronized ShedDemand demand(Instant now) {
		expire(now);
		Map<Integer, String> routes = new LinkedHashMap<>();
		List<String> off = new ArrayList<>();
		for (String name : this.targets.keySet()) {
			if (state(name) == SwitchState.OFF) {
				String cause = "switch:" + name;
				this.targets.get(name).forEach((route) -> routes.putIfAbsent(route, cause));
				SwitchOverride override = this.overrides.get(name);
				off.add(name + ((override != null) ? " (by " + override.by()
						+ ((override.until() != null) ? " until " + override.until() : "") + ")" : " (configured)"));
			}
		}
		return off.isEmpty() ? ShedDemand.NONE : ShedDemand.routes(routes, "switched off: " + String.join(", ", off));
	}

	/**
	 * Overrides end when reset, as if the engine had just started; the configuration stays.
	 */
	@Override
	public synchronized void reset() {
		this.overrides.clear();
	}

	private void expire(Instant now) {
		for (Iterator<SwitchOverride> iterator = this.overrides.values().iterator(); iterator.hasNext();) {
			SwitchOverride override = iterator.next();
			if (override.expiredAt(now)) {
				iterator.remove();
				logger.info("Switch '" + override.name() + "' " + override.state().name().toLowerCase(Locale.ROOT)
						+ " set by " + override.by() + " at " + override.at() + " expired at " + override.until()
						+ "; its configured state (" + state(override.name()).name().toLowerCase(Locale.ROOT)
						+ ") applies");
			}
		}
	}

	private void check(String name) {
		if (!this.targets.containsKey(name)) {
			throw new IllegalArgumentException(unknownMessage(Set.of(name)));
		}
	}

	private String unknownMessage(Set<String> unknown) {
		return "No tier or named route called " + String.join(", ", unknown.stream().map((n) -> "'" + n + "'").toList())
				+ "; the switches are: " + String.join(", ", this.targets.keySet());
	}

}
