package dev.degradation.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Tier;

/**
 * The engine's shed signals, checked once (unique names, well-formed kinds), and how their demands
 * combine into the next {@link DegradationState}: the active level is the highest level demanded
 * (or, while simulation is on, exactly the simulated one), and a route is shed when the level sheds
 * its tier or when a signal demands the route itself, counted under the kind of the signal that
 * shed it. Apart from the engine, which holds the lock, the state and the listeners, so that the
 * combination reads as one function of the signals, the manifest and the time.
 */
final class SignalCombiner {

	private final List<ShedSignal> signals;

	/** The kind of each signal, in the order of {@link #signals}. */
	private final List<String> kinds;

	private final SimulationSignal simulation;

	/**
	 * Check the signals and keep them in their order.
	 * @param signals every signal of the engine, the built-in ones first
	 * @param simulation the built-in simulation signal, among them, whose setting each state records
	 * @throws IllegalArgumentException if two signals have the same name, or a kind is malformed
	 */
	SignalCombiner(List<ShedSignal> signals, SimulationSignal simulation) {
		Set<String> names = new HashSet<>();
		List<String> kinds = new ArrayList<>();
		for (ShedSignal signal : signals) {
			if (!names.add(signal.name())) {
				throw new IllegalArgumentException("Two shed signals are named '" + signal.name() + "'");
			}
			String kind = signal.kind();
			if (kind == null || !kind.matches(ShedSignal.KIND_PATTERN)) {
				throw new IllegalArgumentException("The kind of shed signal '" + signal.name()
						+ "' must be a short lowercase token (" + ShedSignal.KIND_PATTERN + "), such as 'maintenance', but was "
						+ ((kind != null) ? "'" + kind + "'" : "null"));
			}
			kinds.add(kind);
		}
		this.signals = List.copyOf(signals);
		this.kinds = List.copyOf(kinds);
		this.simulation = simulation;
	}

	List<ShedSignal> signals() {
		return this.signals;
	}

	List<String> kinds() {
		return this.kinds;
	}

	/**
	 * Return the state the signals demand now, or {@code previous} itself when it would be the
	 * same (same manifest, level, shed routes, demands and simulation), so that the engine can tell
	 * a change by identity. Called under the engine's lock: the signals are read once each.
	 * @param previous the current state
	 * @param layout the manifest to derive from
	 * @param now the time of the change
	 * @return the next state
	 */
	DegradationState next(DegradationState previous, ManifestLayout layout, Instant now) {
		Map<String, ShedDemand> demands = new LinkedHashMap<>();
		// The kind of each demand's signal, so that a route is counted under the signal that
		// shed it, never under a kind guessed from its cause.
		Map<String, String> kinds = new LinkedHashMap<>();
		for (int i = 0; i < this.signals.size(); i++) {
			ShedSignal signal = this.signals.get(i);
			ShedDemand demand = signal.demand(now);
			if (!demand.isEmpty()) {
				demands.put(signal.name(), demand);
				kinds.put(signal.name(), this.kinds.get(i));
			}
		}
		int computed = 0;
		String computedCause = "";
		String computedReason = "";
		String computedBy = null;
		ShedDemand exact = null;
		String exactBy = null;
		for (Map.Entry<String, ShedDemand> entry : demands.entrySet()) {
			ShedDemand demand = entry.getValue();
			if (demand.exact()) {
				if (exact == null || demand.level() > exact.level()) {
					exact = demand;
					exactBy = entry.getKey();
				}
			}
			else if (demand.level() > computed) {
				computed = demand.level();
				computedCause = demand.levelCause();
				computedReason = demand.reason();
				computedBy = entry.getKey();
			}
		}
		int level = (exact != null) ? exact.level() : computed;
		String levelCause = (exact != null) ? exact.levelCause() : computedCause;
		String levelBy = (exact != null) ? exactBy : computedBy;
		String levelKind = (levelBy != null) ? kinds.get(levelBy) : null;
		String[] causes = new String[layout.routes.size()];
		String[] shedKinds = new String[causes.length];
		boolean shedsAnything = false;
		for (int route = 0; route < causes.length; route++) {
			if (layout.priorities[route] <= level) {
				causes[route] = levelCause;
				shedKinds[route] = levelKind;
			}
		}
		for (Map.Entry<String, ShedDemand> demand : demands.entrySet()) {
			for (Map.Entry<Integer, String> entry : demand.getValue().routes().entrySet()) {
				int route = entry.getKey();
				if (route >= 0 && route < causes.length && causes[route] == null) {
					causes[route] = entry.getValue();
					shedKinds[route] = kinds.get(demand.getKey());
				}
			}
		}
		for (String cause : causes) {
			shedsAnything |= (cause != null);
		}
		boolean levelChanged = previous.level() != level;
		String reason = levelChanged ? levelReason(previous, exact, computed, computedReason) : previous.reason();
		DegradationState next = new DegradationState(level, computed, this.simulation.simulation(),
				shedTiers(layout, level), levelChanged ? now : previous.changedAt(), reason, demands, causes, shedKinds,
				shedsAnything,
				layout.manifest, layout.fallbackCounts);
		if (previous.manifest() == next.manifest() && !levelChanged && next.shedsSameRoutes(previous)
				&& next.demands().equals(previous.demands())
				&& next.simulation().equals(previous.simulation()) && next.computedLevel() == previous.computedLevel()) {
			return previous;
		}
		return next;
	}

	private static String levelReason(DegradationState previous, @Nullable ShedDemand exact, int computed,
			String computedReason) {
		if (exact != null) {
			return exact.reason();
		}
		if (previous.simulation().enabled()) {
			return "simulation off, computed level " + computed + " applies";
		}
		return computed > 0 || !computedReason.isEmpty() ? computedReason
				: "nothing demands a level" + (previous.level() > 0 ? " any more" : "");
	}

	private static List<String> shedTiers(ManifestLayout layout, int level) {
		List<String> names = new ArrayList<>();
		for (Tier tier : layout.manifest.tiers()) {
			if (tier.priority() <= level) {
				names.add(tier.name());
			}
		}
		return names;
	}

}
