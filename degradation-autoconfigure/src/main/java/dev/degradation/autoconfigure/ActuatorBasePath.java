package dev.degradation.autoconfigure;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The Actuator's base path, where no route may be and which no request decision sheds or refuses,
 * as Boot's {@code WebEndpointProperties} binds {@code management.endpoints.web.base-path}. A type
 * of its own so that the core auto-configuration takes it without naming the Actuator's classes,
 * which an application without the Actuator does not have; read at each use, as a configuration
 * refresh may rebind it.
 */
final class ActuatorBasePath {

	private final Supplier<String> basePath;

	ActuatorBasePath(Supplier<String> basePath) {
		this.basePath = basePath;
	}

	String get() {
		return this.basePath.get();
	}

	/**
	 * Return the base path, or {@code null} without the Actuator's web endpoints on the class path.
	 * @param basePath the bean, when there is one
	 * @return the base path, or {@code null}
	 */
	static @Nullable String of(ObjectProvider<ActuatorBasePath> basePath) {
		ActuatorBasePath available = basePath.getIfAvailable();
		return (available != null) ? available.get() : null;
	}

}
