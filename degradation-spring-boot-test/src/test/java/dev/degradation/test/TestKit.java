package dev.degradation.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs a test class of this module's tests with the JUnit Platform, as a build would, and gives
 * its events to assert on.
 */
public final class TestKit {

	/** The configuration parameter that enables the classes marked {@link OnlyInTestKit}. */
	static final String PARAMETER = "degradation.test.run-broken-variants";

	private static final String DYNAMIC_CONTAINER = "dynamic-container";

	private TestKit() {
	}

	/**
	 * Run a test class.
	 * @param testClass the class
	 * @return the events of its tests (not of its containers)
	 */
	public static Events run(Class<?> testClass) {
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(DiscoverySelectors.selectClass(testClass))
			.configurationParameter(PARAMETER, "true")
			.execute();
		// A class that cannot start (its context does not load) fails as a container.
		List<Throwable> failures = results.containerEvents()
			.failed()
			.stream()
			.flatMap((event) -> throwable(event).stream())
			.toList();
		if (!failures.isEmpty()) {
			AssertionError error = new AssertionError(testClass.getName() + " could not run");
			failures.forEach(error::addSuppressed);
			throw error;
		}
		return results.testEvents();
	}

	/**
	 * Run a test class that cannot start, and return why: the messages of its containers'
	 * failures (the class, or a test factory).
	 * @param testClass the class
	 * @return the messages
	 */
	public static List<String> containerFailures(Class<?> testClass) {
		return EngineTestKit.engine("junit-jupiter")
			.selectors(DiscoverySelectors.selectClass(testClass))
			.configurationParameter(PARAMETER, "true")
			.execute()
			.containerEvents()
			.failed()
			.stream()
			.flatMap((event) -> throwable(event).stream())
			.map(Throwable::getMessage)
			.toList();
	}

	/**
	 * Return the display names of the tests that finished, in the order they ran, with the names
	 * of their containers inside the class, such as
	 * {@code GET /api/recommendations (enhanced) > at level 2: answers its static fallback}.
	 * @param events the events
	 * @return the names
	 */
	public static List<String> names(Events events) {
		return events.finished().stream().map(TestKit::name).toList();
	}

	/**
	 * Return the message of the failure each test that failed ended with, after its name.
	 * @param events the events
	 * @return the name and message of each failure
	 */
	public static List<String> failures(Events events) {
		return events.failed()
			.stream()
			.map((event) -> name(event) + ": " + throwable(event).map(Throwable::getMessage).orElse(""))
			.toList();
	}

	/**
	 * The name of a test, after the names of the dynamic containers it is in.
	 */
	private static String name(Event event) {
		List<String> names = new ArrayList<>();
		names.add(event.getTestDescriptor().getDisplayName());
		Optional<TestDescriptor> parent = event.getTestDescriptor().getParent();
		while (parent.isPresent() && parent.get().getUniqueId().getLastSegment().getType().equals(DYNAMIC_CONTAINER)) {
			names.add(0, parent.get().getDisplayName());
			parent = parent.get().getParent();
		}
		return String.join(" > ", names);
	}

	private static Optional<Throwable> throwable(Event event) {
		return event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable);
	}

}
