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

	/** When the breaker last opened: the probes since then are what can show a recovery. */
	private @Nullable Instant breakerOpenedAt;

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
	 * dependency. The state follows evidence of health, and a breaker's transitions are evidence
	 * of different weight:
	 * <ul>
	 * <li>open: real calls fail or are slow, so the dependency is {@link DependencyState#FAILED}
	 * at once, whatever the probes say;</li>
	 * <li>half-open: a trial, not health. Only the probes recorded since the breaker opened judge
	 * (older ones predate the failure): a dependency they show failing stays failed, one they show
	 * within the recovery band is healthy, and one they are too few to judge (or nothing probes)
	 * is {@link DependencyState#UNKNOWN} while the trial lasts: not failed, so that the calls of
	 * the routes that require it can make the trial, and not healthy, since nothing has shown it
	 * is;</li>
	 * <li>closed after half-open: trial calls succeeded, which is evidence of health, so the
	 * dependency is healthy and its probe window starts anew (the failures in it are older than
	 * the calls that just succeeded);</li>
	 * <li>closed straight from open (reset, or replaced on a reload): no call showed anything, so
	 * the probes judge from scratch, and without enough of them the state is unknown.</li>
	 * </ul>
	 * @param state the breaker's new state
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public synchronized @Nullable DependencyStateChange recordBreaker(BreakerState state) {
		DependencyState before = effective();
		BreakerState previous = this.breaker;
		this.breaker = state;
		Instant now = this.clock.instant();
		this.breakerChangedAt = now;
		String why = "";
		if (state == BreakerState.OPEN) {
			this.computed = DependencyState.FAILED;
			this.breakerOpenedAt = now;
			why = ": calls fail or are slow";
		}
		else if (state == BreakerState.HALF_OPEN) {
			if (this.computed == DependencyState.FAILED) {
				Instant opened = this.breakerOpenedAt;
				int samples = (this.dependency.probed() && opened != null) ? this.window.samplesSince(opened, now) : 0;
				if (samples < this.healthCheck.minSamples()) {
					this.computed = DependencyState.UNKNOWN;
					why = ": trial calls let through";
				}
				else if (recoveredByProbes(now)) {
					this.computed = DependencyState.HEALTHY;
					why = ": probes since it opened are within the recovery band";
				}
			}
		}
		else if (previous == BreakerState.HALF_OPEN) {
			this.computed = DependencyState.HEALTHY;
			this.window.clear();
			this.breakerOpenedAt = null;
			why = ": trial calls succeeded";
		}
		else if (previous == BreakerState.OPEN) {
			// Closed without a trial (reset, or replaced on a reload): no call has shown health.
			this.computed = judgedWithoutBreaker(now);
			this.breakerOpenedAt = null;
		}
		return change(before, "circuit breaker " + state.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
				+ why);
	}

	/**
	 * Record that the circuit breaker stopped judging the calls (an operator turned it off:
	 * Resilience4j's {@code DISABLED} or {@code METRICS_ONLY}), or was closed by hand before its
	 * trial calls were made. No call showed anything, even from half-open: the probes judge from
	 * scratch, as after a breaker closed without a trial, and without enough of them the state is
	 * unknown.
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public synchronized @Nullable DependencyStateChange recordBreakerOff() {
		DependencyState before = effective();
		Instant now = this.clock.instant();
		this.breaker = BreakerState.CLOSED;
		this.breakerChangedAt = now;
		this.computed = judgedWithoutBreaker(now);
		this.breakerOpenedAt = null;
		return change(before, "circuit breaker turned off or closed by hand: no call showed health");
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
		this.breakerOpenedAt = null;
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
	 * Return what is known once a breaker closed without a trial: the probes' judgement from
	 * scratch (failed at or above the failure threshold, healthy within the recovery band), and
	 * nothing in between or without enough of them.
	 */
	private DependencyState judgedWithoutBreaker(Instant now) {
		if (!this.dependency.probed() || this.window.samples(now) < this.healthCheck.minSamples()) {
			return DependencyState.UNKNOWN;
		}
		double errorRate = this.window.errorRate(now);
		if (errorRate >= this.healthCheck.failureThreshold()) {
			return DependencyState.FAILED;
		}
		return (errorRate <= this.healthCheck.recoveryThreshold()) ? DependencyState.HEALTHY : DependencyState.UNKNOWN;
	}

	/**
	 * Return whether the probes recorded since the breaker last opened show a recovery: enough
	 * of them to judge, and their error rate within the recovery band.
	 */
	private boolean recoveredByProbes(Instant now) {
		Instant since = this.breakerOpenedAt;
		if (since == null) {
			return false;
		}
		int samples = this.window.samplesSince(since, now);
		return samples >= this.healthCheck.minSamples() && (double) this.window.failuresSince(since, now)
				/ samples <= this.healthCheck.recoveryThreshold();
	}

	private void judge(Instant now) {
		if (this.breaker == BreakerState.OPEN) {
			// Real calls fail: no probe overrides what the breaker saw.
			return;
		}
		Instant opened = this.breakerOpenedAt;
		if (this.breaker == BreakerState.HALF_OPEN && opened != null) {
			// A trial is no health: only probes made since the breaker opened judge, both ways, so
			// that failures from before the open neither keep a recovered dependency failed nor
			// fail it again once it recovered.
			int samples = this.window.samplesSince(opened, now);
			if (samples < this.healthCheck.minSamples()) {
				return;
			}
			double errorRate = (double) this.window.failuresSince(opened, now) / samples;
			if (errorRate >= this.healthCheck.failureThreshold()) {
				this.computed = DependencyState.FAILED;
			}
			else if (errorRate <= this.healthCheck.recoveryThreshold()) {
				this.computed = DependencyState.HEALTHY;
			}
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
