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

	private @Nullable ProbeResult lastProbe;

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
		this.window.add(result.at(), result.healthy());
		this.lastProbe = result;
		judge(result.at());
		return change(before, "probe " + result.outcome() + ": error rate " + percent(result.at()) + " over "
				+ this.window.samples(result.at()) + " probes");
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
	public synchronized @Nullable DependencyStateChange force(DependencyState state) {
		DependencyState before = effective();
		this.forced = state;
		return change(before, "forced " + state);
	}

	/**
	 * Stop forcing; the computed state applies again at once.
	 * @return the change of the effective state, or {@code null} if it did not change
	 */
	public synchronized @Nullable DependencyStateChange release() {
		DependencyState before = effective();
		this.forced = null;
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
		this.lastProbe = null;
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
				this.window.errorRate(now), this.window.samples(now), this.lastProbe);
	}

	private void judge(Instant now) {
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
