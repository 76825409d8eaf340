package dev.degradation.test;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test walks a 90 s hysteresis down in no time by moving the test clock: a dependency that failed
 * raised the level to 2 ({@code failed_dependency_sheds: tiers}); once released, the level comes
 * down one tier per hysteresis, each step taken as soon as the clock passes it.
 */
@SpringBootTest(classes = ShopApplication.class,
		properties = "degradation.manifest=classpath:contract/hysteresis.yaml")
@AutoConfigureDegradation
class HysteresisWithTheTestClockTests {

	/** Less than the hysteresis by more than a test on a loaded machine takes. */
	private static final Duration NOT_YET = Duration.ofSeconds(85);

	@Autowired
	private DegradationEngine engine;

	@Autowired
	private DegradationTestClock clock;

	@Test
	void aReleasedDependencyBringsTheLevelDownOneTierPerHysteresisAsTheClockMoves() {
		this.engine.forceDependency("recommendations-api", DependencyState.FAILED);
		assertThat(this.engine.state().level()).isEqualTo(2);
		this.engine.releaseDependency("recommendations-api");
		assertThat(this.engine.state().level()).as("held by the hysteresis").isEqualTo(2);
		this.clock.advance(NOT_YET);
		assertThat(this.engine.state().level()).isEqualTo(2);
		this.clock.advance(Duration.ofSeconds(90).minus(NOT_YET));
		assertThat(this.engine.state().level()).as("one step down").isEqualTo(1);
		this.clock.advance(Duration.ofSeconds(90));
		assertThat(this.engine.state().level()).as("another step").isZero();
	}

	@Test
	void eachTestStartsAtLevelZeroWhateverTheClock() {
		assertThat(this.engine.state().level()).isZero();
		assertThat(this.engine.state().shedsAnything()).isFalse();
	}

}
