package dev.degradation.engine;

import java.util.Map;

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
 */
public record ShedDemand(int level, boolean exact, String levelCause, Map<Integer, String> routes, String reason) {

	/** A demand of nothing. */
	public static final ShedDemand NONE = new ShedDemand(0, false, "", Map.of(), "");

	public ShedDemand {
		if (level < 0) {
			throw new IllegalArgumentException("A demanded level must be 0 or more, but was " + level);
		}
		routes = Map.copyOf(routes);
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
	 * Return whether this demand sheds nothing.
	 * @return whether neither a level nor a route is demanded
	 */
	public boolean isEmpty() {
		return this.level == 0 && !this.exact && this.routes.isEmpty();
	}

}
