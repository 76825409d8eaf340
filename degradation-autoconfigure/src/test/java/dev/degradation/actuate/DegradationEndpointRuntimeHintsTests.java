package dev.degradation.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint's response types are registered for reflection, so that they serialize in a native
 * image as they do on the JVM.
 */
class DegradationEndpointRuntimeHintsTests {

	@Test
	void everyResponseTypeIsRegisteredForBinding() {
		RuntimeHints hints = new RuntimeHints();
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints,
				DegradationEndpoint.class);
		for (Class<?> type : new Class<?>[] { DegradationEndpoint.DegradationDescriptor.class,
				DegradationEndpoint.SignalDescriptor.class, DegradationEndpoint.TierDescriptor.class,
				DegradationEndpoint.RouteDescriptor.class, DegradationEndpoint.HoldDescriptor.class,
				DegradationEndpoint.DependencyDescriptor.class,
				DegradationEndpoint.ProbeDescriptor.class }) {
			assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(type.getSimpleName()).accepts(hints);
		}
	}

}
