package dev.degradation.client;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

import dev.degradation.overload.RequestPriority;

/**
 * Lets Micrometer's context-propagation carry the {@link RequestPriority} of a request to the
 * threads that work for it, so that the guarded calls made there pass it on: registered with the
 * global {@code ContextRegistry} by the {@code ServiceLoader}, as {@link CallDeadlineAccessor} is.
 * Here, not beside {@code RequestPriority}, so that the admission core stays plain Java.
 */
public final class RequestPriorityAccessor implements ThreadLocalAccessor<Integer> {

	@Override
	public Object key() {
		return RequestPriority.KEY;
	}

	@Override
	public @Nullable Integer getValue() {
		return RequestPriority.current();
	}

	@Override
	public void setValue(Integer value) {
		RequestPriority.set(value);
	}

	@Override
	public void setValue() {
		RequestPriority.set(null);
	}

}
