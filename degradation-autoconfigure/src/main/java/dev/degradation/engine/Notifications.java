package dev.degradation.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Route;
import dev.degradation.monitor.DependencyStateChange;

/**
 * Tells the listeners of an engine, in the order the changes were made, never under the engine's
 * lock. Changes are queued while the lock is held and delivered by one drain at a time on the
 * given executor, so that listeners are told in order even when several threads change the
 * engine; with an executor of its own thread, a listener that blocks holds up only later
 * notifications, never a probe or an Actuator call. What a new state changed (its level, the
 * routes shed and restored) is worked out here too, so that the engine only says that it changed.
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
	 * Queue what a new state changed: the level (with its shed tiers and reason), and which
	 * routes were shed or restored while the manifest stayed the same. Called under the lock.
	 * @param previous the state before
	 * @param next the state after, a different one
	 * @param routes the manifest's routes in shed order
	 * @param now the time of the change
	 */
	void stateChanged(DegradationState previous, DegradationState next, List<Route> routes, Instant now) {
		if (previous.level() != next.level()) {
			LevelChange change = new LevelChange(previous.level(), next.level(), next.shedTiers(), next.reason(), now);
			add((listener) -> listener.levelChanged(change));
		}
		if (previous.manifest() == next.manifest() && !next.shedsSameRoutes(previous)) {
			ShedChange change = shedChange(previous, next, routes, now);
			add((listener) -> listener.shedChanged(change));
		}
	}

	/**
	 * Queue a change of a dependency's state, if there is one. Called under the lock.
	 */
	void dependencyChanged(@Nullable DependencyStateChange change) {
		if (change != null) {
			add((listener) -> listener.dependencyChanged(change));
		}
	}

	private static ShedChange shedChange(DegradationState previous, DegradationState next, List<Route> routes,
			Instant now) {
		List<String> shed = new ArrayList<>();
		List<String> restored = new ArrayList<>();
		for (int route = 0; route < routes.size(); route++) {
			String before = previous.shedCause(route);
			String after = next.shedCause(route);
			if (after != null && !after.equals(before)) {
				shed.add(routes.get(route) + " (" + after + ")");
			}
			else if (after == null && before != null) {
				restored.add(routes.get(route).toString());
			}
		}
		return new ShedChange(shed, restored, now);
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
