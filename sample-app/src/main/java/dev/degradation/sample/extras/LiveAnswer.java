package dev.degradation.sample.extras;

/**
 * The marker the extras put in their answers: {@code "source": "live"} when a dependency
 * answered, as opposed to the {@code "source": "degraded"} of the manifest's static fallbacks.
 */
final class LiveAnswer {

	static final String SOURCE = "live";

	private LiveAnswer() {
	}

}
