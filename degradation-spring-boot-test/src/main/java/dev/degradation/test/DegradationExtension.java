package dev.degradation.test;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.test.context.junit.jupiter.SpringExtension;

import dev.degradation.event.DegradationNotifier;
import dev.degradation.engine.DegradationEngine;

/**
 * JUnit extension that puts the degradation engine of a Spring test's application context back as
 * it started, before and after each test: simulation off, forced dependencies released, windows
 * emptied and hysteresis forgotten ({@link DegradationEngine#reset()}). A cached context is shared
 * by every test class with the same configuration, so without it a level a test simulated, or a
 * level that a released dependency holds for its hysteresis, would shed routes in the next test.
 *
 * <p>The reset runs before the test's {@code @BeforeEach} methods and after its
 * {@code @AfterEach} methods, and returns once the listeners have been told of the changes it
 * made, so that a test that counts events never sees those of the previous one. Registered by
 * {@link AutoConfigureDegradation @AutoConfigureDegradation}; it needs Spring's
 * {@code SpringExtension} ({@code @SpringBootTest}, {@code @WebMvcTest}, ...).
 */
public class DegradationExtension implements BeforeEachCallback, AfterEachCallback {

	/** How long the listeners may take to hear of a reset before the test goes on anyway. */
	private static final Duration NOTIFICATION_BOUND = Duration.ofSeconds(5);

	@Override
	public void beforeEach(ExtensionContext context) {
		reset(context);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		reset(context);
	}

	private static void reset(ExtensionContext context) {
		ApplicationContext applicationContext = applicationContext(context);
		applicationContext.getBeanProvider(DegradationEngine.class).forEach(DegradationEngine::reset);
		applicationContext.getBeanProvider(DegradationNotifier.class).forEach(DegradationExtension::awaitListeners);
	}

	private static ApplicationContext applicationContext(ExtensionContext context) {
		Class<?> testClass = context.getRequiredTestClass();
		if (!isSpringTest(testClass)) {
			throw new IllegalStateException(testClass.getName() + " uses " + DegradationExtension.class.getSimpleName()
					+ " (@AutoConfigureDegradation) but is not a Spring test: annotate it with @SpringBootTest or "
					+ "@WebMvcTest");
		}
		return SpringExtension.getApplicationContext(context);
	}

	private static boolean isSpringTest(Class<?> testClass) {
		for (Class<?> candidate = testClass; candidate != null; candidate = candidate.getEnclosingClass()) {
			boolean spring = MergedAnnotations.from(candidate, SearchStrategy.TYPE_HIERARCHY)
				.stream(ExtendWith.class)
				.flatMap((extendWith) -> Arrays.stream(extendWith.getClassArray("value")))
				.anyMatch(SpringExtension.class::equals);
			if (spring) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The notifier tells listeners of one change after another on its own thread: once a task
	 * queued after the reset has run, every notification of the reset has been delivered.
	 */
	private static void awaitListeners(DegradationNotifier notifier) {
		try {
			CompletableFuture.runAsync(() -> {
			}, notifier).get(NOTIFICATION_BOUND.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("Degradation listeners were not told of the engine's reset within "
					+ NOTIFICATION_BOUND.toSeconds() + " s", ex);
		}
	}

}
