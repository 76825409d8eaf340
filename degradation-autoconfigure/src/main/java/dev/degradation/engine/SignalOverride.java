package dev.degradation.engine;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Something an operator set on a {@link ShedSignal} at run time, as the endpoint lists it among
 * its overrides and the {@code degradation.overrides} gauge counts it: a forced dependency, a
 * simulation, a switch.
 *
 * @param target what it sets, as the endpoint addresses it, such as {@code simulation},
 * {@code switches/<name>} or {@code dependencies/<name>}
 * @param state what it set it to, such as {@code off} or {@code level 2}
 * @param by who set it
 * @param at when
 * @param until when it ends by itself, or {@code null} for never
 */
public record SignalOverride(String target, String state, String by, Instant at, @Nullable Instant until) {

}
