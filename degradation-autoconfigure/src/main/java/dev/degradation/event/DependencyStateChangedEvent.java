package dev.degradation.event;

import org.springframework.context.ApplicationEvent;

import dev.degradation.monitor.DependencyStateChange;

/**
 * Published once for every change of a dependency's effective state (probed or forced).
 */
public class DependencyStateChangedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient DependencyStateChange change;

	/**
	 * Create a new event.
	 * @param source the reporter that published it
	 * @param change the change
	 */
	public DependencyStateChangedEvent(Object source, DependencyStateChange change) {
		super(source);
		this.change = change;
	}

	/**
	 * Return the change.
	 * @return the change
	 */
	public DependencyStateChange getChange() {
		return this.change;
	}

}
