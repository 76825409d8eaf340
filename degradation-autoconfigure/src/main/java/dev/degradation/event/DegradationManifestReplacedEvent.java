package dev.degradation.event;

import org.springframework.context.ApplicationEvent;

import dev.degradation.engine.ManifestReplaced;

/**
 * Published once for every reload that made a new manifest active, so that an application can react
 * (notify, adjust caches) without polling.
 */
public class DegradationManifestReplacedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient ManifestReplaced change;

	/**
	 * Create a new event.
	 * @param source the engine that changed
	 * @param change the change
	 */
	public DegradationManifestReplacedEvent(Object source, ManifestReplaced change) {
		super(source);
		this.change = change;
	}

	/**
	 * Return the change.
	 * @return the change
	 */
	public ManifestReplaced getChange() {
		return this.change;
	}

}
