package dev.degradation.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.PressureRule;
import dev.degradation.manifest.Tier;

/**
 * Sheds tiers on the resources the application is running out of: each rule of the manifest's
 * {@code pressure} section watches one meter the application already has (the heap after
 * collection, the time spent collecting, a pool's queued callers) and, while its value is above
 * the rule's {@code shed_above}, demands the level of the rule's tier, which sheds that tier and
 * every lower one. Several rules may hold at once; the highest level wins.
 *
 * <p>Two hystereses keep a value that hovers at a threshold from making the tiers flap: by value
 * (a rule that sheds lets go only once its value is below {@code restore_below}) and in time (the
 * level comes down one tier at a time, each step after the manifest's {@code hysteresis_seconds},
 * as the other signals' levels do).
 *
 * <p>The signal knows nothing of where the values come from: a sampler reads the meters off the
 * engine's lock and gives them to {@link #record}, which tells the engine when a rule starts or
 * stops pressing. Thread-safe.
 */
public final class PressureSignal implements ShedSignal {

	/** The name and the kind of this signal: its causes are {@code pressure:<meter>}. */
	public static final String NAME = "pressure";

	private static final Log logger = LogFactory.getLog(PressureSignal.class);

	private List<PressureRule> rules;

	private List<RuleState> states;

	private LevelHysteresis level;

	private Duration hysteresis;

	private String lastCause = NAME;

	/**
	 * Create the signal of a manifest's pressure rules.
	 * @param manifest the manifest
	 * @param start the engine's current time
	 */
	public PressureSignal(DegradationManifest manifest, Instant start) {
		this.rules = manifest.pressure();
		this.states = fresh(this.rules, start);
		this.hysteresis = manifest.defaults().hysteresis();
		this.level = newLevel(manifest, start);
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String kind() {
		return NAME;
	}

	/**
	 * Return the rules of the active manifest.
	 * @return the rules
	 */
	public synchronized List<PressureRule> rules() {
		return this.rules;
	}

	/**
	 * Record the values of the rules' meters, read at one instant, in the order of
	 * {@link #rules()}: a rule whose value passes above its {@code shed_above} starts pressing, one
	 * whose value falls below its {@code restore_below} stops. A value that is not a number (a
	 * meter the application does not have, or no longer has) presses nothing.
	 * @param rules the rules the values were read for, as {@link #rules()} returned them
	 * @param values the values, one a rule
	 * @param now the engine's current time
	 * @return whether a rule started or stopped pressing, so that the engine evaluates again
	 */
	public synchronized boolean record(List<PressureRule> rules, double[] values, Instant now) {
		if (rules != this.rules) {
			// Read for the manifest before a reload: its values may name other meters.
			return false;
		}
		boolean changed = false;
		for (int i = 0; i < rules.size(); i++) {
			PressureRule rule = rules.get(i);
			RuleState state = this.states.get(i);
			double value = values[i];
			state.value = value;
			boolean pressing = state.pressing ? !(Double.isNaN(value) || value < rule.restoreBelow())
					: !Double.isNaN(value) && value > rule.shedAbove();
			if (pressing != state.pressing) {
				state.pressing = pressing;
				state.since = now;
				changed = true;
				if (logger.isInfoEnabled()) {
					logger.info("Pressure rule " + rule.describeMeter() + (pressing ? " pressing at " : " released at ")
							+ value + (pressing ? " (above " + rule.shedAbove() + "): sheds tier '" + rule.tier()
									+ "' and every lower one" : " (below " + rule.restoreBelow() + ")"));
				}
			}
		}
		return changed;
	}

	@Override
	public synchronized ShedDemand demand(Instant now) {
		int required = 0;
		PressureRule highest = null;
		for (int i = 0; i < this.rules.size(); i++) {
			PressureRule rule = this.rules.get(i);
			if (this.states.get(i).pressing && rule.priority() > required) {
				required = rule.priority();
				highest = rule;
			}
		}
		String why = (highest != null)
				? highest.describeMeter() + " at " + this.states.get(this.rules.indexOf(highest)).value + ", above "
						+ highest.shedAbove()
				: "";
		this.level.follow(required, now, why);
		int level = this.level.level();
		if (level == 0) {
			return ShedDemand.NONE;
		}
		if (highest != null) {
			this.lastCause = highest.cause();
		}
		// While the level comes down with no rule pressing, its cause is the rule that raised it.
		String cause = this.lastCause;
		return ShedDemand.level(level, cause, this.level.reason()).withLevelHolds(holds(required));
	}

	/**
	 * What holds each shed tier: a rule that presses holds its tier until its value falls below
	 * {@code restore_below}; above what the rules require, the level's hysteresis holds the rest.
	 */
	private Map<Integer, ShedHold> holds(int required) {
		Map<Integer, ShedHold> holds = new TreeMap<>();
		if (required > 0) {
			PressureRule holder = null;
			for (int i = 0; i < this.rules.size(); i++) {
				if (this.states.get(i).pressing && this.rules.get(i).priority() == required) {
					holder = this.rules.get(i);
				}
			}
			if (holder != null) {
				holds.put(required, new ShedHold("pressure", holder.describeMeter() + " is above "
						+ holder.shedAbove() + "; the tier comes back once it is below " + holder.restoreBelow(), null));
			}
		}
		int level = this.level.level();
		if (level > required) {
			holds.put(level, new ShedHold("level-hysteresis", "the level comes down one tier every "
					+ this.hysteresis.toSeconds() + " s once no rule requires it",
					this.level.restoresAt(level, required)));
		}
		return holds;
	}

	@Override
	public synchronized Map<String, Object> sections(DegradationState state) {
		if (this.rules.isEmpty()) {
			return Map.of();
		}
		List<Map<String, Object>> rules = new ArrayList<>();
		for (int i = 0; i < this.rules.size(); i++) {
			PressureRule rule = this.rules.get(i);
			RuleState ruleState = this.states.get(i);
			Map<String, Object> described = new LinkedHashMap<>();
			described.put("meter", rule.meter());
			described.put("tags", rule.tags());
			described.put("cause", rule.cause());
			described.put("sheds", rule.tier());
			described.put("shedAbove", rule.shedAbove());
			described.put("restoreBelow", rule.restoreBelow());
			described.put("value", Double.isNaN(ruleState.value) ? null : ruleState.value);
			described.put("state", ruleState.pressing ? "pressing" : "clear");
			described.put("since", ruleState.since);
			rules.add(described);
		}
		Map<String, Object> section = new LinkedHashMap<>();
		section.put("rules", rules);
		section.put("level", this.level.level());
		return Map.of(NAME, section);
	}

	@Override
	public synchronized void reset() {
		Instant now = this.level.changedAt();
		this.states = fresh(this.rules, now);
		this.level.reset(now);
	}

	@Override
	public synchronized void manifestChanged(DegradationManifest manifest) {
		Instant now = this.level.changedAt();
		List<RuleState> kept = new ArrayList<>();
		for (PressureRule rule : manifest.pressure()) {
			int before = this.rules.indexOf(rule);
			kept.add((before >= 0) ? this.states.get(before) : new RuleState(now));
		}
		this.rules = manifest.pressure();
		this.states = kept;
		this.hysteresis = manifest.defaults().hysteresis();
		this.level = newLevel(manifest, now);
	}

	private static LevelHysteresis newLevel(DegradationManifest manifest, Instant start) {
		return new LevelHysteresis(manifest.tiers().stream().map(Tier::priority).toList(),
				manifest.defaults().hysteresis(), start, "no pressure rule presses");
	}

	private static List<RuleState> fresh(List<PressureRule> rules, Instant now) {
		List<RuleState> states = new ArrayList<>();
		for (int i = 0; i < rules.size(); i++) {
			states.add(new RuleState(now));
		}
		return states;
	}

	/**
	 * What one rule last read and whether it presses.
	 */
	private static final class RuleState {

		private double value = Double.NaN;

		private boolean pressing;

		private Instant since;

		RuleState(Instant since) {
			this.since = since;
		}

	}

}
