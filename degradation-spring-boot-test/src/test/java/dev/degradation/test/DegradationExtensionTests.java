package dev.degradation.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.testkit.engine.Events;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.LevelChange;
import dev.degradation.monitor.DependencyState;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that share a cached context do not shed for one another: a level that a forced and
 * released dependency holds for its hysteresis is gone when the next test starts, and the
 * listeners have heard of it.
 */
class DegradationExtensionTests {

	private static final String MANIFEST = "degradation.manifest=classpath:contract/hysteresis.yaml";

	@Test
	void theNextTestOfACachedContextStartsWithNothingShedAndTheListenersTold() {
		Events events = TestKit.run(ResetBetweenTests.class);
		assertThat(TestKit.failures(events)).isEmpty();
		assertThat(events.succeeded().count()).isEqualTo(2);
	}

	@Test
	void withoutTheExtensionTheHysteresisShedsInTheNextTest() {
		assertThat(TestKit.failures(TestKit.run(NoResetBetweenTests.class))).singleElement()
			.asString()
			.startsWith("nextTestSeesNothingShed(): [the level in the next test]");
	}

	@Test
	void aTestThatIsNotASpringTestIsToldWhatItNeeds() {
		assertThat(TestKit.failures(TestKit.run(NotASpringTest.class))).singleElement()
			.asString()
			.contains(NotASpringTest.class.getName() + " uses DegradationExtension (@AutoConfigureDegradation) but is "
					+ "not a Spring test: annotate it with @SpringBootTest or @WebMvcTest");
	}

	/**
	 * Forces a dependency down and releases it, so that the level stays up for 90 s of
	 * hysteresis; the next test expects nothing shed.
	 */
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	abstract static class LeakingTests {

		@Autowired
		DegradationEngine engine;

		@Autowired
		RecordedChanges changes;

		@Test
		@Order(1)
		void testThatLeavesTheLevelUp() {
			this.engine.forceDependency("recommendations-api", DependencyState.FAILED);
			this.engine.releaseDependency("recommendations-api");
			assertThat(this.engine.state().level()).as("held by the hysteresis").isEqualTo(2);
		}

		@Test
		@Order(2)
		void nextTestSeesNothingShed() {
			assertThat(this.engine.state().level()).as("the level in the next test").isZero();
			assertThat(this.engine.state().shedsAnything()).isFalse();
			assertThat(this.changes.levels).last().extracting(LevelChange::level).isEqualTo(0);
		}

	}

	@OnlyInTestKit
	@SpringBootTest(classes = ShopApplication.class, properties = MANIFEST)
	@Import(RecordedChanges.class)
	@AutoConfigureDegradation
	static class ResetBetweenTests extends LeakingTests {

	}

	@OnlyInTestKit
	@SpringBootTest(classes = ShopApplication.class, properties = { MANIFEST, "degradation.probes.enabled=false" })
	@Import(RecordedChanges.class)
	static class NoResetBetweenTests extends LeakingTests {

	}

	@OnlyInTestKit
	@AutoConfigureDegradation
	static class NotASpringTest {

		@Test
		void test() {
		}

	}

	/**
	 * The level changes the engine's listeners were told of.
	 */
	static class RecordedChanges implements DegradationListener {

		final List<LevelChange> levels = new CopyOnWriteArrayList<>();

		@Override
		public void levelChanged(LevelChange change) {
			this.levels.add(change);
		}

	}

}
