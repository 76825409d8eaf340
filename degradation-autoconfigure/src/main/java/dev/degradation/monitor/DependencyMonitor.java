package dev.degradation.monitor;

import java.time.Clock;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.HealthCheck;

/**
 * The judged health of one dependency: its window of probe results and the state they imply,
 * with the band between {@code recovery_threshold} and {@code failure_threshold} in which the
 * state does not change, so that one probe cannot make it flap. A state can also be forced (for
 * CI), which overrides the computed one until released. Thread-safe.
 */
public final class DependencyMonitor {

	private final Dependency dependency;

	private final HealthCheck healthCheck;

	private final Clock clock;

	private final ProbeWindow window;

	private DependencyState computed = DependencyState.UNKNOWN;

	private @Nullable DependencyState forced;

	private @Nullable String forcedBy;

	private @Nullable Instant forcedAt;

	private @Nullable ProbeResult lastProbe;

	private BreakerState breaker = BreakerState.CLOSED;

	private @Nullable Instant breakerChangedAt;

	/**
	 * Create a monitor with no results yet: the dependency is {@link DependencyState#UNKNOWN}.
	 * @param dependency the dependency
	 * @param clock the clock that ages the window
	 */
	public DependencyMonitor(Dependency dependency, Clock clock) {
		this.dependency = dependency;
		this.healthCheck = dependency.healthCheck();
		this.clock = clock;
		this.window = new ProbeWindow(this.healthCheck.window(), this.healthCheck.windowCapacity());
	}

	/**
	 * Return the dependency this monitor judges.
	 * @return the dependency
	 */
	public Dependency dependency() {
		return this.dependency;
	}

	/**
	 * Record a probe result and judge the dependency again.
	 * @param result the result
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public synchronized @Nullable DependencyStateChange record(ProbeResult result) {
		DependencyState before = effective();
		if (result.counts()) {
			this.window.add(result.at(), result.healthy());
		}
		this.lastProbe = result;
		judge(result.at());
		// A failed probe says why (no such health indicator, connection refused, ...), so that the
		// log line of a change is enough to act on.
		String why = (!result.healthy() && result.detail() != null && !result.detail().isBlank())
				? " (" + result.detail() + ")" : "";
		return change(before, "probe " + result.outcome() + why + ": error rate " + percent(result.at()) + " over "
				+ this.window.samples(result.at()) + " probes");
	}

	/**
	 * Record a transition of the circuit breaker that guards the application's calls to the
	 * dependency. An open breaker makes the dependency {@link DependencyState#FAILED} at once,
	 * whatever the probes say: real calls fail or are slow. Once the breaker lets trial calls
	 * through (half-open) or closes, the probes judge again; a dependency that nothing probes is
	 * judged by its breaker alone, so it counts as healthy again. Half-open counts as not failed on
	 * purpose: while its routes are shed no call would ever make the trial, and the per-dependency
	 * hysteresis already keeps them shed for a while.
	 * @param state the breaker's new state
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public synchronized @Nullable DependencyStateChange recordBreaker(BreakerState state) {
		DependencyState before = effective();
		BreakerState previous = this.breaker;
		this.breaker = state;
		Instant now = this.clock.instant();
		this.breakerChangedAt = now;
		if (state == BreakerState.OPEN) {
			this.computed = DependencyState.FAILED;
		}
		else if (previous == BreakerState.OPEN || this.computed == DependencyState.FAILED) {
			this.computed = judgedByProbes(now);
		}
		return change(before, "circuit breaker " + state.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
				+ ((state == BreakerState.OPEN) ? ": calls fail or are slow" : ""));
	}

	/**
	 * Judge the dependency again as its window ages, without a new result (results that slide
	 * out of the window can change the error rate).
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public synchronized @Nullable DependencyStateChange refresh() {
		DependencyState before = effective();
		Instant now = this.clock.instant();
		judge(now);
		return change(before, "window aged: error rate " + percent(now) + " over " + this.window.samples(now)
				+ " probes");
	}

	/**
	 * Force the effective state, whatever the probes say, until {@link #release()}.
	 * @param state the state to force
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public @Nullable DependencyStateChange force(DependencyState state) {
		return force(state, "application");
	}

	/**
	 * Force the effective state, whatever the probes say, until {@link #release()}, saying who
	 * did, so that the endpoint can tell an operator who to ask before releasing it.
	 * @param state the state to force
	 * @param by who forced it
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public synchronized @Nullable DependencyStateChange force(DependencyState state, String by) {
		DependencyState before = effective();
		this.forced = state;
		this.forcedBy = by;
		this.forcedAt = this.clock.instant();
		return change(before, "forced " + state);
	}

	/**
	 * Stop forcing; the computed state applies again at once.
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public synchronized @Nullable DependencyStateChange release() {
		DependencyState before = effective();
		this.forced = null;
		this.forcedBy = null;
		this.forcedAt = null;
		return change(before, "released, probes say " + this.computed);
	}

	/**
	 * Forget every result and any forcing: the dependency is {@link DependencyState#UNKNOWN} again,
	 * as if the monitor had just been created.
	 */
	public synchronized void reset() {
		this.window.clear();
		this.computed = DependencyState.UNKNOWN;
		this.forced = null;
		this.forcedBy = null;
		this.forcedAt = null;
		this.lastProbe = null;
		this.breaker = BreakerState.CLOSED;
		this.breakerChangedAt = null;
	}

	/**
	 * Return the effective state: the forced one if any, otherwise the computed one.
	 * @return the state
	 */
	public synchronized DependencyState state() {
		return effective();
	}

	/**
	 * Return everything known about the dependency, for the endpoint, metrics and health.
	 * @return the status
	 */
	public synchronized DependencyStatus status() {
		Instant now = this.clock.instant();
		return new DependencyStatus(this.dependency.name(), effective(), this.computed, this.forced != null,
				this.window.errorRate(now), this.window.samples(now), this.lastProbe, this.breaker,
				this.breakerChangedAt, this.forcedBy, this.forcedAt);
	}

	/**
	 * Return what the probes alone say once an open breaker no longer does: failed only while
	 * the window still holds enough failures to be judged failed from scratch.
	 */
	private DependencyState judgedByProbes(Instant now) {
		if (this.window.samples(now) < this.healthCheck.minSamples()) {
			return this.dependency.probed() ? DependencyState.UNKNOWN : DependencyState.HEALTHY;
		}
		return (this.window.errorRate(now) >= this.healthCheck.failureThreshold()) ? DependencyState.FAILED
				: DependencyState.HEALTHY;
	}

	private void judge(Instant now) {
		if (this.breaker == BreakerState.OPEN) {
			// Real calls fail: no probe overrides what the breaker saw.
			return;
		}
		int samples = this.window.samples(now);
		if (samples < this.healthCheck.minSamples()) {
			// Too few results to judge: keep what was concluded before, unless nothing was.
			return;
		}
		double errorRate = this.window.errorRate(now);
		if (this.computed == DependencyState.FAILED) {
			if (errorRate <= this.healthCheck.recoveryThreshold()) {
				this.computed = DependencyState.HEALTHY;
			}
		}
		else if (errorRate >= this.healthCheck.failureThreshold()) {
			this.computed = DependencyState.FAILED;
		}
		else if (this.computed == DependencyState.UNKNOWN) {
			this.computed = DependencyState.HEALTHY;
		}
	}

	private DependencyState effective() {
		return (this.forced != null) ? this.forced : this.computed;
	}

	private @Nullable DependencyStateChange change(DependencyState before, String reason) {
		DependencyState after = effective();
		if (after == before) {
			return null;
		}
		return new DependencyStateChange(this.dependency.name(), before, after, reason, this.clock.instant());
	}

	private String percent(Instant now) {
		return Math.round(this.window.errorRate(now) * 1000) / 10.0 + "%";
	}

}
