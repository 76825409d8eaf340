package dev.degradation.sample.embedded;

/**
 * How an embedded dependency behaves, so that the demo can make one fail while the others stay
 * healthy.
 *
 * <p>Only the modes below exist for now. Further modes are meant to slot in here, each one a
 * branch of {@link EmbeddedDependency}'s answer: refusing (close the connection without an
 * answer, since the dependencies share one listening socket and cannot refuse it one by one),
 * hanging (never answer) and slow (answer after a delay).
 */
public enum DependencyMode {

	/** Every endpoint answers normally; the health endpoint answers 200. */
	HEALTHY,

	/** Every endpoint, the health endpoint included, answers 500. */
	FAILING

}
