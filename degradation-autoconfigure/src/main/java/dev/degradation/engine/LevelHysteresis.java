package dev.degradation.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * A shed level that rises at once to what is required and comes down one tier at a time, each
 * step only after the hysteresis since the last change, so that an input that flaps cannot make
 * the level flap. Not thread-safe: its signal guards it.
 */
public final class LevelHysteresis {

	private final NavigableSet<Integer> priorities;

	private final Duration hysteresis;

	private int level;

	private Instant changedAt;

	private final String nothingRequired;

	private String reason = "";

	/**
	 * Create a level at 0.
	 * @param priorities the tier priorities, the steps the level comes down by
	 * @param hysteresis the minimum time between two steps down
	 * @param start the instant the level starts at 0
	 * @param nothingRequired what the reason of a step down says when nothing requires a level,
	 * such as {@code "no failed dependency is required"}
	 */
	public LevelHysteresis(Iterable<Integer> priorities, Duration hysteresis, Instant start,
			String nothingRequired) {
		this.nothingRequired = nothingRequired;
		TreeSet<Integer> steps = new TreeSet<>();
		priorities.forEach(steps::add);
		this.priorities = steps;
		this.hysteresis = hysteresis;
		this.changedAt = start;
	}

	/**
	 * Follow what is required at an instant: rise at once, or take every step down that the
	 * hysteresis allows.
	 * @param required the level required now
	 * @param now the instant
	 * @param why what requires it, for the reason ({@code "search failed (required up to level 5)"}),
	 * or empty when nothing does
	 * @return whether the level changed
	 */
	public boolean follow(int required, Instant now, String why) {
		int before = this.level;
		if (required > this.level) {
			change(required, now, "raised to " + required + ": " + why);
		}
		// Each step down waits the hysteresis since the last change; with no hysteresis the steps
		// follow one another at once.
		while (required < this.level && !now.isBefore(this.changedAt.plus(this.hysteresis))) {
			Integer lower = this.priorities.lower(this.level);
			int next = Math.max(required, (lower != null) ? lower : 0);
			change(next, now, "stepped down to " + next + " after " + this.hysteresis.toSeconds() + " s of hysteresis; "
					+ ((required == 0) ? this.nothingRequired
							: "still required: " + required + " (" + why + ")"));
		}
		return this.level != before;
	}

	/**
	 * Return the level.
	 * @return the level
	 */
	public int level() {
		return this.level;
	}

	/**
	 * Return when the level lets a tier go if what is required stays below it: each step down
	 * waits the hysteresis since the last change, and the level must step past every tier
	 * priority from its own down to the tier's.
	 * @param priority the tier's priority, at most the level
	 * @param required the level required now, below the tier's priority
	 * @return the instant the tier is no longer shed
	 */
	public Instant restoresAt(int priority, int required) {
		int steps = 1 + this.priorities.subSet(Math.max(priority, required + 1), true, this.level, false).size();
		return this.changedAt.plus(this.hysteresis.multipliedBy(steps));
	}

	/**
	 * Return the minimum time between two steps down.
	 * @return the hysteresis
	 */
	public Duration hysteresis() {
		return this.hysteresis;
	}

	/**
	 * Return when the level last changed.
	 * @return the instant
	 */
	public Instant changedAt() {
		return this.changedAt;
	}

	/**
	 * Return why the level is what it is: the reason of its last change.
	 * @return the reason, empty before any change
	 */
	public String reason() {
		return this.reason;
	}

	/**
	 * Go back to level 0 at once, as if just created.
	 * @param now the instant
	 */
	public void reset(Instant now) {
		this.level = 0;
		this.changedAt = now;
		this.reason = "";
	}

	private void change(int level, Instant now, String reason) {
		this.level = level;
		this.changedAt = now;
		this.reason = reason;
	}

}
