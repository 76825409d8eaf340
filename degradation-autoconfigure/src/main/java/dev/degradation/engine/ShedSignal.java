package dev.degradation.engine;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.degradation.manifest.DegradationManifest;

/**
 * One source of shedding: failed dependencies, simulation, and later overload, breakers and
 * operator switches. A signal says what it demands at an instant and why; the
 * {@link DegradationEngine} combines every signal's demand into one {@link DegradationState} and
 * records each demand in it, so that the endpoint can say why each route is shed.
 *
 * <p>A signal keeps its own inputs and is thread-safe on its own. After its inputs change it calls
 * {@link DegradationEngine#evaluate()} (or is changed through an engine method that does), so that
 * the engine asks it again. {@link #demand} is called under the engine's lock: it must be quick,
 * do no I/O and never call back into the engine. Time-based behaviour, such as a hysteresis,
 * belongs to the signal, judged on the instant it is given. A signal that knows when it lets its
 * routes go says so with {@link ShedHold holds} on its demand ({@link ShedDemand#withRouteHolds},
 * {@link ShedDemand#withLevelHolds}), so that the endpoint can tell an operator why a route is
 * still shed and when it comes back.
 */
public interface ShedSignal {

	/**
	 * Return the name of this signal, as shown in the snapshot and the endpoint, such as
	 * {@code dependencies} or {@code simulation}. Unique among an engine's signals.
	 * @return the name
	 */
	String name();

	/**
	 * Return the kind of this signal: the first part of the causes it gives (before any
	 * {@code ':'}), such as {@code dependency}, {@code overload}, {@code switch},
	 * {@code simulation} or a user's own {@code maintenance}. The routes this signal sheds are
	 * counted under it ({@code degradation.fallbacks}, tag {@code cause}), so it must stay a short
	 * lowercase token ({@link #KIND_PATTERN}) that does not depend on the signal's inputs.
	 * @return the kind
	 */
	String kind();

	/**
	 * What a kind must look like: a lowercase letter, then at most 31 lowercase letters, digits
	 * or {@code '-'}, so that it is safe as a metric tag and as the start of a header value.
	 */
	String KIND_PATTERN = "[a-z][a-z0-9-]{0,31}";

	/**
	 * Return what this signal demands at the given instant.
	 * @param now the engine's current time
	 * @return the demand, {@link ShedDemand#NONE} when it demands nothing
	 */
	ShedDemand demand(Instant now);

	/**
	 * Return this signal's sections of the {@code degradation} endpoint's answer, by the key each
	 * takes at its top level (such as {@code switches} or {@code overload}), read by operators and
	 * the status page beside every signal's demand. A value is made of maps, lists, strings,
	 * numbers, booleans and instants, so that it is written the same way by every JSON mapper and
	 * in a native image. Called for every read of the endpoint, not under the engine's lock.
	 * @param state the snapshot the endpoint shows
	 * @return the sections, empty (the default) for none
	 */
	default Map<String, Object> sections(DegradationState state) {
		return Map.of();
	}

	/**
	 * Return what operators set on this signal at run time and holds now, listed by the endpoint
	 * among its overrides and counted by the {@code degradation.overrides} gauge under this
	 * signal's kind.
	 * @return the overrides, empty (the default) for none
	 */
	default List<SignalOverride> runTimeOverrides() {
		return List.of();
	}

	/**
	 * Forget every input and every timer, as if the engine had just started. Called under the
	 * engine's lock by {@link DegradationEngine#reset()}.
	 */
	default void reset() {
	}

	/**
	 * Take a new manifest into account (a reload): route indices in later demands are indices in
	 * the new manifest's routes. Called under the engine's lock, before the engine asks for the
	 * next demand.
	 * @param manifest the new manifest
	 */
	default void manifestChanged(DegradationManifest manifest) {
	}

}
