package dev.degradation.client;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

import dev.degradation.engine.RequestSimulation;

/**
 * Lets Micrometer's context-propagation carry a request's own {@link RequestSimulation} to the
 * threads that work for it, so that the guarded calls made there follow it: registered with the
 * global {@code ContextRegistry} by the {@code ServiceLoader}, as {@link RequestPriorityAccessor} is.
 */
public final class RequestSimulationAccessor implements ThreadLocalAccessor<RequestSimulation> {

	@Override
	public Object key() {
		return RequestSimulation.KEY;
	}

	@Override
	public @Nullable RequestSimulation getValue() {
		return RequestSimulation.current();
	}

	@Override
	public void setValue(RequestSimulation value) {
		RequestSimulation.set(value);
	}

	@Override
	public void setValue() {
		RequestSimulation.set(null);
	}

}
