package dev.degradation.event;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.LevelChange;
import dev.degradation.engine.ManifestReplaced;
import dev.degradation.engine.ShedChange;
import dev.degradation.monitor.DependencyStateChange;

/**
 * Reports every change of the engine once: one INFO log line and one application event, for each
 * change of the shed level, of the shed routes and of a dependency's state (never per probe or
 * per request).
 */
public class DegradationChangeReporter implements DegradationListener {

	private static final Log logger = LogFactory.getLog(DegradationChangeReporter.class);

	private final ApplicationEventPublisher publisher;

	/**
	 * Create a reporter.
	 * @param publisher where events are published
	 */
	public DegradationChangeReporter(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void levelChanged(LevelChange change) {
		if (logger.isInfoEnabled()) {
			logger.info("Shed level " + change.previousLevel() + " -> " + change.level() + " (shed tiers: "
					+ (change.shedTiers().isEmpty() ? "none" : String.join(", ", change.shedTiers())) + "): "
					+ change.reason());
		}
		this.publisher.publishEvent(new DegradationLevelChangedEvent(this, change));
	}

	@Override
	public void shedChanged(ShedChange change) {
		if (logger.isInfoEnabled()) {
			logger.info("Shed routes changed:" + (change.shed().isEmpty() ? "" : " shed " + String.join(", ", change.shed()))
					+ (change.shed().isEmpty() || change.restored().isEmpty() ? "" : ";")
					+ (change.restored().isEmpty() ? "" : " restored " + String.join(", ", change.restored())));
		}
		this.publisher.publishEvent(new DegradationShedChangedEvent(this, change));
	}

	@Override
	public void manifestReplaced(ManifestReplaced replaced) {
		this.publisher.publishEvent(new DegradationManifestReplacedEvent(this, replaced));
	}

	@Override
	public void dependencyChanged(DependencyStateChange change) {
		if (logger.isInfoEnabled()) {
			logger.info("Dependency '" + change.dependency() + "' " + change.previous() + " -> " + change.state() + ": "
					+ change.reason());
		}
		this.publisher.publishEvent(new DependencyStateChangedEvent(this, change));
	}

}
