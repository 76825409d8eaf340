package dev.degradation.sample.extras;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Analytics and A/B assignment: tier {@code best-effort} of the manifest, the first shed. Losing
 * an event or showing everyone the control variant costs the shop nothing it cannot do without.
 */
@RestController
public class AnalyticsController {

	private final AnalyticsCollector collector;

	AnalyticsController(AnalyticsCollector collector) {
		this.collector = collector;
	}

	/**
	 * Forward an event to the collector.
	 * @param event the event
	 * @return 202: accepted by the collector
	 */
	@PostMapping("/api/analytics/track")
	ResponseEntity<Void> track(@RequestBody TrackedEvent event) {
		this.collector.track(event);
		return ResponseEntity.accepted().build();
	}

	/**
	 * Assign a user to a variant of an experiment.
	 * @param experiment the experiment
	 * @param user the user
	 * @return the assignment
	 */
	@GetMapping("/api/ab/assign")
	Assignment assign(@RequestParam(defaultValue = "homepage-banner") String experiment,
			@RequestParam(defaultValue = "anonymous") String user) {
		return new Assignment(experiment, this.collector.assign(experiment, user), LiveAnswer.SOURCE);
	}

	/**
	 * The variant a user sees.
	 *
	 * @param experiment the experiment
	 * @param variant the variant
	 * @param source {@code live}
	 */
	record Assignment(String experiment, String variant, String source) {

	}

}
