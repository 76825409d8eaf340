package dev.degradation.engine;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What keeps a shed route shed, as one {@link ShedSignal} sees it, and when that signal lets the
 * route go, so that the endpoint can answer an operator's question "why is this route still shed
 * and when does it come back?".
 *
 * @param rule the short, stable name of the rule that holds the route, such as
 * {@code dependency-failed}, {@code dependency-hysteresis}, {@code level-hysteresis} or
 * {@code simulation}
 * @param detail a sentence for people: what holds the route and what lets it go
 * @param restoresAt when the signal lets the route go if nothing else changes, on the engine's
 * clock (the engine evaluates about once a second, so the route comes back within a second of
 * it); {@code null} while it waits for a condition rather than a time, such as a failed
 * dependency that has not recovered yet
 */
public record ShedHold(String rule, String detail, @Nullable Instant restoresAt) {

	/**
	 * Return the later of two holds of one route: the route comes back only when both let it go,
	 * and a hold that waits for a condition ({@code restoresAt} {@code null}) is the later one.
	 * @param other the other hold
	 * @return this or the other
	 */
	public ShedHold later(ShedHold other) {
		if (this.restoresAt == null) {
			return this;
		}
		if (other.restoresAt == null) {
			return other;
		}
		return other.restoresAt.isAfter(this.restoresAt) ? other : this;
	}

}
