package dev.degradation.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.util.Assert;

/**
 * A clock that tests move forward, so that a hysteresis or a window passes without waiting for
 * it. It runs with the system clock, offset by every {@link #advance(Duration) advance} made so
 * far: time still passes as the application expects, and an advance of a hysteresis is exactly one
 * hysteresis on top of it. It never goes back, even between tests, because the engine judges
 * windows and hysteresis by differences of its instants.
 *
 * <p>{@link AutoConfigureDegradation @AutoConfigureDegradation} registers one as the
 * application's {@code Clock} bean, which the engine then judges time by, unless the application
 * has a {@code Clock} bean of its own; inject it with {@code @Autowired}. After each advance the
 * engine derives its state again, so that a step down that the advance made due has happened
 * when {@code advance} returns.
 */
public final class DegradationTestClock extends Clock {

	private final Clock base;

	private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

	private final List<Runnable> advanceActions = new CopyOnWriteArrayList<>();

	/**
	 * Create a clock that runs with the system clock, in UTC.
	 */
	public DegradationTestClock() {
		this(Clock.systemUTC());
	}

	/**
	 * Create a clock that runs with another clock.
	 * @param base the clock to run with
	 */
	public DegradationTestClock(Clock base) {
		this.base = base;
	}

	/**
	 * Move the clock forward, then run the actions registered with {@link #onAdvance(Runnable)}
	 * (the engine's evaluation).
	 * @param duration how far, zero or more
	 * @throws IllegalArgumentException if the duration is negative
	 */
	public void advance(Duration duration) {
		Assert.isTrue(!duration.isNegative(), () -> "'duration' must not be negative, but was " + duration);
		this.offset.accumulateAndGet(duration, Duration::plus);
		this.advanceActions.forEach(Runnable::run);
	}

	/**
	 * Return how far the clock has been moved ahead of the clock it runs with.
	 * @return the sum of every advance
	 */
	public Duration offset() {
		return this.offset.get();
	}

	/**
	 * Run an action after every advance, such as deriving an engine's state again.
	 * @param action the action
	 */
	public void onAdvance(Runnable action) {
		this.advanceActions.add(action);
	}

	@Override
	public Instant instant() {
		return this.base.instant().plus(this.offset.get());
	}

	@Override
	public ZoneId getZone() {
		return this.base.getZone();
	}

	/**
	 * Return a view of this clock in another zone; it moves with this clock.
	 */
	@Override
	public Clock withZone(ZoneId zone) {
		if (zone.equals(getZone())) {
			return this;
		}
		DegradationTestClock clock = this;
		return new Clock() {

			@Override
			public Instant instant() {
				return clock.instant();
			}

			@Override
			public ZoneId getZone() {
				return zone;
			}

			@Override
			public Clock withZone(ZoneId other) {
				return clock.withZone(other);
			}

		};
	}

	@Override
	public String toString() {
		return "DegradationTestClock[" + this.base + " + " + this.offset.get() + "]";
	}

}
