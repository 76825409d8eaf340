package dev.degradation.engine;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells the listeners of an engine, in the order the changes were made, never under the engine's
 * lock. Changes are queued while the lock is held and delivered by one drain at a time on the
 * given executor, so that listeners are told in order even when several threads change the
 * engine; with an executor of its own thread, a listener that blocks holds up only later
 * notifications, never a probe or an Actuator call.
 */
final class Notifications {

	private static final Log logger = LogFactory.getLog(Notifications.class);

	private final List<DegradationListener> listeners;

	private final Executor executor;

	private final Queue<Consumer<DegradationListener>> pending = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean draining = new AtomicBoolean();

	Notifications(List<DegradationListener> listeners, Executor executor) {
		this.listeners = listeners;
		this.executor = executor;
	}

	/**
	 * Queue a notification; called under the engine's lock, so that the queue's order is the
	 * order of the changes.
	 */
	void add(Consumer<DegradationListener> notification) {
		this.pending.add(notification);
	}

	/**
	 * Deliver what is queued; called after the engine's lock is released.
	 */
	void dispatch() {
		if (this.pending.isEmpty() || this.draining.get()) {
			return;
		}
		try {
			this.executor.execute(this::drain);
		}
		catch (RejectedExecutionException ex) {
			// The executor is shut down with the application; nothing is left to tell.
			this.pending.clear();
		}
	}

	private void drain() {
		while (!this.pending.isEmpty() && this.draining.compareAndSet(false, true)) {
			try {
				Consumer<DegradationListener> notification;
				while ((notification = this.pending.poll()) != null) {
					tell(notification);
				}
			}
			finally {
				this.draining.set(false);
			}
		}
	}

	/**
	 * Tell every listener, each on its own: a listener that throws is logged and never stops the
	 * change it is told of, nor the listeners after it.
	 */
	private void tell(Consumer<DegradationListener> notification) {
		for (DegradationListener listener : this.listeners) {
			try {
				notification.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("Degradation listener " + listener.getClass().getName() + " failed", ex);
			}
		}
	}

}
