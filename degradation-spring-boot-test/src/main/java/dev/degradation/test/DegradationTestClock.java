package dev.degradation.test;

import java.time.Clock;

import dev.degradation.fixture.TestClock;

/**
 * A clock that tests move forward, so that a hysteresis or a window passes without waiting for
 * it. It runs with the system clock, offset by every {@link #advance(java.time.Duration) advance} made so
 * far: time still passes as the application expects, and an advance of a hysteresis is exactly one
 * hysteresis on top of it. It never goes back, even between tests, because the engine judges
 * windows and hysteresis by differences of its instants.
 *
 * <p>{@link AutoConfigureDegradation @AutoConfigureDegradation} registers one as the
 * application's {@code Clock} bean, which the engine then judges time by, unless the application
 * has a {@code Clock} bean of its own; inject it with {@code @Autowired}. After each advance the
 * engine derives its state again, so that a step down that the advance made due has happened
 * when {@code advance} returns.
 *
 * <p>It is the {@link TestClock} of the project's own tests, under the name this module's users
 * know, so that the clock the starter is tested with and the one its users test with are one.
 */
public final class DegradationTestClock extends TestClock {

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
		super(base);
	}

}
