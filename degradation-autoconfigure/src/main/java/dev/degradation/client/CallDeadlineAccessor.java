package dev.degradation.client;

import java.time.Instant;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

/**
 * Lets Micrometer's context-propagation carry the {@link CallDeadline} of a request to the
 * threads that work for it: registered with the global {@code ContextRegistry} by the
 * {@code ServiceLoader} ({@code META-INF/services/io.micrometer.context.ThreadLocalAccessor}), so
 * that Spring's {@code ContextPropagatingTaskDecorator}, Reactor's automatic context propagation
 * and any {@code ContextSnapshot} carry it without code of ours.
 */
public final class CallDeadlineAccessor implements ThreadLocalAccessor<Instant> {

	@Override
	public Object key() {
		return CallDeadline.KEY;
	}

	@Override
	public @Nullable Instant getValue() {
		return CallDeadline.current();
	}

	@Override
	public void setValue(Instant value) {
		CallDeadline.set(value);
	}

	@Override
	public void setValue() {
		CallDeadline.set(null);
	}

}
