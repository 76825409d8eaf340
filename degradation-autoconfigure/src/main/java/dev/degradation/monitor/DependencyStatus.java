package dev.degradation.monitor;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of what is known about one dependency.
 *
 * @param name the dependency name
 * @param state the effective state (forced, or else computed)
 * @param computedState the state the probes imply
 * @param forced whether the state is forced
 * @param errorRate the error rate over the window, from 0 to 1
 * @param samples the number of probe results in the window
 * @param lastProbe the last probe result, if any
 * @param breaker the state the breaker that guards the application's calls last reported;
 * {@link BreakerState#CLOSED} when no call was ever guarded
 * @param breakerChangedAt when the breaker last changed state, or {@code null} if it never did
 * @param forcedBy who forced the state, or {@code null} when it is not forced
 * @param forcedAt when the state was forced, or {@code null} when it is not forced
 */
public record DependencyStatus(String name, DependencyState state, DependencyState computedState, boolean forced,
		double errorRate, int samples, @Nullable ProbeResult lastProbe, BreakerState breaker,
		@Nullable Instant breakerChangedAt, @Nullable String forcedBy, @Nullable Instant forcedAt) {

}
