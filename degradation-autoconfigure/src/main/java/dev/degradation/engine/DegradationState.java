package dev.degradation.engine;

import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DegradationManifest;

/**
 * An immutable snapshot of what the service sheds right now, and why. A new snapshot replaces the
 * old one on every change; readers never see a half-made change. The request path asks it one
 * question per request, {@link #shedCause(int)}: an array read.
 */
public final class DegradationState {

	private static final String[] HEADER_VALUES = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9" };

	private final int level;

	private final int computedLevel;

	private final Simulation simulation;

	private final List<String> shedTiers;

	private final Instant changedAt;

	private final String reason;

	private final Map<String, ShedDemand> demands;

	private final @Nullable String[] shedCauses;

	private final @Nullable String[] shedKinds;

	private final boolean shedsAnything;

	private final DegradationManifest manifest;

	private final FallbackCounts fallbackCounts;

	DegradationState(int level, int computedLevel, Simulation simulation, List<String> shedTiers, Instant changedAt,
			String reason, Map<String, ShedDemand> demands, @Nullable String[] shedCauses,
			@Nullable String[] shedKinds, boolean shedsAnything, DegradationManifest manifest,
			FallbackCounts fallbackCounts) {
		this.manifest = manifest;
		this.fallbackCounts = fallbackCounts;
		this.level = level;
		this.computedLevel = computedLevel;
		this.simulation = simulation;
		this.shedTiers = List.copyOf(shedTiers);
		this.changedAt = changedAt;
		this.reason = reason;
		this.demands = Collections.unmodifiableMap(new LinkedHashMap<>(demands));
		this.shedCauses = shedCauses;
		this.shedKinds = shedKinds;
		this.shedsAnything = shedsAnything;
	}

	/**
	 * Return the manifest this state was derived from: route indices in this state are indices in
	 * its {@code routes()}. After a reload, a request that read the previous state keeps using the
	 * previous manifest's routes, so that it never mixes the two.
	 * @return the manifest
	 */
	public DegradationManifest manifest() {
		return this.manifest;
	}

	/**
	 * Return the fallback counts of this state's manifest, where the request path counts.
	 * @return the counts
	 */
	public FallbackCounts fallbackCounts() {
		return this.fallbackCounts;
	}

	/**
	 * Return the active shed level: every tier whose priority is at most this is shed.
	 * @return the level
	 */
	public int level() {
		return this.level;
	}

	/**
	 * Return the level that the signals other than simulation demand, which applies whenever
	 * simulation is off.
	 * @return the computed level
	 */
	public int computedLevel() {
		return this.computedLevel;
	}

	/**
	 * Return the simulation setting.
	 * @return the setting
	 */
	public Simulation simulation() {
		return this.simulation;
	}

	/**
	 * Return the names of the tiers the level sheds, in shed order. Routes shed on their own (a
	 * failed dependency sheds only the routes that require it) are told by
	 * {@link #shedCause(int)}.
	 * @return the tier names
	 */
	public List<String> shedTiers() {
		return this.shedTiers;
	}

	/**
	 * Return when the active level last changed, or the engine started.
	 * @return the instant
	 */
	public Instant changedAt() {
		return this.changedAt;
	}

	/**
	 * Return why the active level is what it is.
	 * @return the reason
	 */
	public String reason() {
		return this.reason;
	}

	/**
	 * Return every signal's demand when this snapshot was made, by signal name, in the engine's
	 * order of signals; a signal that demands nothing is absent.
	 * @return the demands
	 */
	public Map<String, ShedDemand> demands() {
		return this.demands;
	}

	/**
	 * Return whether this state sheds any route at all, so that the request path can skip the
	 * lookup of a request's route while nothing is shed.
	 * @return whether any route is shed
	 */
	public boolean shedsAnything() {
		return this.shedsAnything;
	}

	/**
	 * Return why a route is shed, or {@code null} when it is not: the short cause sent in the
	 * {@code X-Degradation-Reason} header, such as {@code dependency:recommendations-api} or
	 * {@code simulation}.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @return the cause, or {@code null} when the route is not shed
	 */
	public @Nullable String shedCause(int route) {
		return (route < this.shedCauses.length) ? this.shedCauses[route] : null;
	}

	/**
	 * Return the {@link ShedSignal#kind() kind} of the signal whose demand sheds a route, for
	 * counting: the kind of the signal that demands the level when the level sheds it, such as
	 * {@code simulation}, {@code dependency} or {@code overload}.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @return the kind, or {@code null} when the route is not shed
	 */
	public @Nullable String shedKind(int route) {
		return (route < this.shedKinds.length) ? this.shedKinds[route] : null;
	}

	/**
	 * Return whether a tier of the given priority is shed by the level of this state.
	 * @param priority the tier priority
	 * @return whether the level sheds the tier
	 */
	public boolean sheds(int priority) {
		return priority <= this.level;
	}

	/**
	 * Return the level as the text of the {@code X-Degradation-Level} header, without allocating
	 * for the common levels.
	 * @return the header value
	 */
	public String levelHeader() {
		return (this.level >= 0 && this.level < HEADER_VALUES.length) ? HEADER_VALUES[this.level]
				: Integer.toString(this.level);
	}

	/**
	 * Return what holds a shed route and until when, by the name of each signal that sheds it, in
	 * the engine's order of signals: the route comes back once every one of them lets it go. A
	 * signal that does not say what holds it is shown by its short cause and its reason, with no
	 * restore time. Worked out on each call, for the endpoint, not for the request path.
	 * @param route the index of the route in {@code manifest().routes()}
	 * @return the holds, empty when the route is not shed
	 */
	public Map<String, ShedHold> holds(int route) {
		if (shedCause(route) == null) {
			return Map.of();
		}
		int priority = this.manifest.tier(this.manifest.routes().get(route).tier()).orElseThrow().priority();
		// The level is an exact demand's (simulation) when there is one, and those of the other
		// signals apply only when there is none: the same rule as the engine's.
		ShedDemand exact = null;
		for (ShedDemand demand : this.demands.values()) {
			if (demand.exact() && (exact == null || demand.level() > exact.level())) {
				exact = demand;
			}
		}
		Map<String, ShedHold> holds = new LinkedHashMap<>();
		for (Map.Entry<String, ShedDemand> entry : this.demands.entrySet()) {
			ShedDemand demand = entry.getValue();
			boolean byLevel = priority <= demand.level() && ((exact != null) ? demand == exact : !demand.exact());
			String routeCause = demand.routes().get(route);
			if (byLevel) {
				ShedHold hold = demand.levelHold(priority);
				holds.put(entry.getKey(), (hold != null) ? hold : new ShedHold(demand.levelCause(), demand.reason(), null));
			}
			else if (routeCause != null) {
				ShedHold hold = demand.routeHolds().get(route);
				holds.put(entry.getKey(), (hold != null) ? hold : new ShedHold(routeCause, demand.reason(), null));
			}
		}
		return holds;
	}

	boolean shedsSameRoutes(DegradationState other) {
		return Arrays.equals(this.shedCauses, other.shedCauses);
	}

	@Override
	public String toString() {
		return "DegradationState[level=" + this.level + ", computedLevel=" + this.computedLevel + ", simulation="
				+ this.simulation + ", shedTiers=" + this.shedTiers + ", demands=" + this.demands.keySet()
				+ ", reason=" + this.reason + "]";
	}

}
