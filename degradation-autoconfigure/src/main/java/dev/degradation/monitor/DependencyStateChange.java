package dev.degradation.monitor;

import java.time.Instant;

/**
 * A change of a dependency's effective state: logged once, published as an event and counted.
 *
 * @param dependency the dependency name
 * @param previous the state before
 * @param state the state after
 * @param reason why it changed, such as the error rate that crossed a threshold
 * @param at when it changed
 */
public record DependencyStateChange(String dependency, DependencyState previous, DependencyState state,
		String reason, Instant at) {

}
