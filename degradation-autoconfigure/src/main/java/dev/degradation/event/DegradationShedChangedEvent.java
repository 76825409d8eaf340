package dev.degradation.event;

import org.springframework.context.ApplicationEvent;

import dev.degradation.engine.ShedChange;

/**
 * Published once for every change of which routes are shed (by the level or on their own), so that an application can react
 * (notify, adjust caches) without polling.
 */
public class DegradationShedChangedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient ShedChange change;

	/**
	 * Create a new event.
	 * @param source the engine that changed
	 * @param change the change
	 */
	public DegradationShedChangedEvent(Object source, ShedChange change) {
		super(source);
		this.change = change;
	}

	/**
	 * Return the change.
	 * @return the change
	 */
	public ShedChange getChange() {
		return this.change;
	}

}
