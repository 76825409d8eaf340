package dev.degradation.engine;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A switch set at run time by an operator (through the Actuator), over what the configuration
 * says, until it is removed or its time to live ends.
 *
 * @param name the switch: a tier name or a route name
 * @param state the state it sets
 * @param by who set it: the authenticated principal's name, or {@code anonymous}
 * @param at when it was set
 * @param until when it ends by itself, or {@code null} for never
 */
public record SwitchOverride(String name, SwitchState state, String by, Instant at, @Nullable Instant until) {

	boolean expiredAt(Instant now) {
		return this.until != null && !now.isBefore(this.until);
	}

}
