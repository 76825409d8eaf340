package dev.degradation.sample.extras;

import java.util.Map;

/**
 * Client of the {@code analytics-collector} dependency: records events and assigns A/B variants.
 */
public class AnalyticsCollector {

	private final RemoteDependency dependency;

	AnalyticsCollector(RemoteDependency dependency) {
		this.dependency = dependency;
	}

	/**
	 * Record an event.
	 * @param event the event
	 * @throws DependencyUnavailableException if the collector cannot take it
	 */
	public void track(TrackedEvent event) {
		this.dependency.post("/events", event);
	}

	/**
	 * Return the variant of an experiment a user sees.
	 * @param experiment the experiment
	 * @param user the user
	 * @return the variant, such as {@code treatment}
	 * @throws DependencyUnavailableException if the collector does not answer
	 */
	public String assign(String experiment, String user) {
		return this.dependency.get("/assignments", Map.of("experiment", experiment, "user", user), Variant.class)
			.variant();
	}

	record Variant(String variant) {

	}

}
