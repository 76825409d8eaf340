package dev.degradation.event;

import org.springframework.context.ApplicationEvent;

import dev.degradation.engine.LevelChange;

/**
 * Published once for every change of the active shed level, so that an application can react
 * (notify, adjust caches) without polling.
 */
public class DegradationLevelChangedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient LevelChange change;

	/**
	 * Create a new event.
	 * @param source the engine that changed
	 * @param change the change
	 */
	public DegradationLevelChangedEvent(Object source, LevelChange change) {
		super(source);
		this.change = change;
	}

	/**
	 * Return the change.
	 * @return the change
	 */
	public LevelChange getChange() {
		return this.change;
	}

}
