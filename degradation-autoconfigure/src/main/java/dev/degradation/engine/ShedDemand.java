package dev.degradation.engine;

import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * What one {@link ShedSignal} demands at an instant: a shed level, routes to shed whatever the
 * level, or both, with the reason.
 *
 * @param level the shed level demanded (every tier whose priority is at most this is shed); 0 for
 * none
 * @param exact whether the level replaces the levels other signals demand instead of adding to
 * them (simulation, so that CI sees exactly the level it asked for)
 * @param levelCause the short, stable cause given to the routes this level sheds, sent in the
 * {@code X-Degradation-Reason} header, such as {@code simulation} or {@code dependency:search};
 * empty when no level is demanded
 * @param routes the routes demanded shed whatever the level, by index in
 * {@code DegradationManifest.routes()}, each with its short cause, such as
 * {@code dependency:recommendations-api}
 * @param reason a sentence for people: why the signal demands this
 * @param levelHolds what holds the routes the level sheds and until when, by tier priority: the
 * routes of a tier of priority {@code p} are held by the entry with the least key at or above
 * {@code p} (one entry keyed by the level holds every tier alike); empty when the signal does not
 * say
 * @param routeHolds what holds each route demanded on its own and until when, by route index;
 * empty when the signal does not say
 */
public record ShedDemand(int level, boolean exact, String levelCause, Map<Integer, String> routes, String reason,
		NavigableMap<Integer, ShedHold> levelHolds, Map<Integer, ShedHold> routeHolds) {

	/** A demand of nothing. */
	public static final ShedDemand NONE = new ShedDemand(0, false, "", Map.of(), "");

	public ShedDemand {
		if (level < 0) {
			throw new IllegalArgumentException("A demanded level must be 0 or more, but was " + level);
		}
		routes = Map.copyOf(routes);
		levelHolds = Collections.unmodifiableNavigableMap(new TreeMap<>(levelHolds));
		routeHolds = Map.copyOf(routeHolds);
	}

	/**
	 * Create a demand that does not say what holds its routes.
	 * @param level the shed level demanded, 0 for none
	 * @param exact whether the level replaces the levels other signals demand
	 * @param levelCause the short cause given to the routes the level sheds
	 * @param routes the routes demanded shed whatever the level, each with its short cause
	 * @param reason why
	 */
	public ShedDemand(int level, boolean exact, String levelCause, Map<Integer, String> routes, String reason) {
		this(level, exact, levelCause, routes, reason, new TreeMap<>(), Map.of());
	}

	/**
	 * Return a demand for a level that adds to what other signals demand.
	 * @param level the level
	 * @param cause the short cause for the routes it sheds
	 * @param reason why
	 * @return the demand
	 */
	public static ShedDemand level(int level, String cause, String reason) {
		return new ShedDemand(level, false, cause, Map.of(), reason);
	}

	/**
	 * Return a demand for routes, whatever the level.
	 * @param routes the routes by index, each with its short cause
	 * @param reason why
	 * @return the demand
	 */
	public static ShedDemand routes(Map<Integer, String> routes, String reason) {
		return new ShedDemand(0, false, "", routes, reason);
	}

	/**
	 * Return this demand, saying what holds the routes its level sheds and until when.
	 * @param holds the holds by tier priority, as {@link #levelHolds()} reads them
	 * @return the demand
	 */
	public ShedDemand withLevelHolds(Map<Integer, ShedHold> holds) {
		return new ShedDemand(this.level, this.exact, this.levelCause, this.routes, this.reason, new TreeMap<>(holds),
				this.routeHolds);
	}

	/**
	 * Return this demand, saying what holds each route it demands on its own and until when.
	 * @param holds the holds by route index
	 * @return the demand
	 */
	public ShedDemand withRouteHolds(Map<Integer, ShedHold> holds) {
		return new ShedDemand(this.level, this.exact, this.levelCause, this.routes, this.reason, this.levelHolds,
				holds);
	}

	/**
	 * Return what holds the routes of a tier that this demand's level sheds.
	 * @param priority the tier's priority
	 * @return the hold, or {@code null} when the level does not shed the tier or the signal does
	 * not say
	 */
	public @Nullable ShedHold levelHold(int priority) {
		if (priority > this.level) {
			return null;
		}
		Map.Entry<Integer, ShedHold> entry = this.levelHolds.ceilingEntry(priority);
		return (entry != null) ? entry.getValue() : null;
	}

	/**
	 * Return whether this demand sheds nothing.
	 * @return whether neither a level nor a route is demanded
	 */
	public boolean isEmpty() {
		return this.level == 0 && !this.exact && this.routes.isEmpty();
	}

}
